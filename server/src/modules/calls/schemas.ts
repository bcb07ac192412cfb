import Type from 'typebox';
import { Id } from '../../http/schema-types.js';

const ChatId = Id;

export const ChatBody = Type.Object({ chat_id: ChatId }, { additionalProperties: false });
export const ChatQuery = Type.Object({ chat_id: ChatId, token: Type.Optional(Type.String({ maxLength: 2000 })) });
export const RecordingQuery = Type.Object({ chat_id: ChatId });
export const RecordingBody = Type.Object({ chat_id: ChatId, enabled: Type.Boolean() }, { additionalProperties: false });
export const MeetSocketParams = Type.Object({ chatId: ChatId });
export const MeetSocketQuery = Type.Object({ token: Type.String({ minLength: 1, maxLength: 2000 }) });
