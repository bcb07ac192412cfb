import Type from 'typebox';
import { Id } from '../../http/schema-types.js';

// The calls routes' wire shapes live in the shared contract (packages/protocol), the client's as well; the
// meeting socket's own parameters stay here until its frames join it.
export { CallChatBody as ChatBody, CallChatQuery as ChatQuery, RecordingBody, RecordingQuery, callRoutes } from '@messenger/protocol';

export const MeetSocketParams = Type.Object({ chatId: Id });
export const MeetSocketQuery = Type.Object({ token: Type.String({ minLength: 1, maxLength: 2000 }) });
