import Type from 'typebox';
import { Compile } from 'typebox/compile';
import { MeetingClientFrame, MeetingEnvelope } from '@messenger/protocol';
import { Id } from '../../http/schema-types.js';

// The calls routes' wire shapes live in the shared contract (packages/protocol), the client's as well, and so do
// the meeting socket's frames (meeting-socket.ts there); the meeting socket's own parameters stay here.
export { CallChatBody as ChatBody, CallChatQuery as ChatQuery, RecordingBody, RecordingQuery, callRoutes } from '@messenger/protocol';

export const MeetSocketParams = Type.Object({ chatId: Id });
export const MeetSocketQuery = Type.Object({ token: Type.String({ minLength: 1, maxLength: 2000 }) });

/** A browser's meeting frame with its `data` parsed, checked against the contract; compiled once. */
export const meetingClientFrame = Compile(MeetingClientFrame);
/** The envelope of every meeting frame: `{event, data}`, both text. */
export const meetingEnvelope = Compile(MeetingEnvelope);
