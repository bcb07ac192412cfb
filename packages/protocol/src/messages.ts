import Type from 'typebox';
import { Deleted, IdParams } from './common.js';
import { Message, Reaction } from './chats.js';
import { REACTION_EMOJI, limits } from './limits.js';
import { PublicUser } from './users.js';

/** The new text (trimmed; 1 to 10 000 characters, counted as the server counts them: the bound here is the wire's). */
export const EditMessageBody = Type.Object({ text: Type.String({ maxLength: limits.textMax * 2 }) }, { additionalProperties: false });

export const ReactionBody = Type.Object({ emoji: Type.Union(REACTION_EMOJI.map((emoji) => Type.Literal(emoji))) }, { additionalProperties: false });

/** The client says whether it thinks this is the chat's last message; the server works it out itself. */
export const DeleteMessageQuery = Type.Object({ is_last_message: Type.Optional(Type.Boolean()) });

const Reactions = Type.Object({ chat_id: Type.Integer(), message_id: Type.Integer(), reactions: Type.Array(Reaction) });

/** What is done to a message once sent (sending itself is a chat-socket frame, docs/protocol.md). */
export const messageRoutes = {
  remove: { method: 'DELETE', url: '/chat/message/:id', params: IdParams, querystring: DeleteMessageQuery, response: Deleted },
  edit: { method: 'PUT', url: '/chat/message/:id', params: IdParams, body: EditMessageBody, response: Type.Object({ message: Message }) },
  react: { method: 'PUT', url: '/chat/message/:id/reaction', params: IdParams, body: ReactionBody, response: Reactions },
  unreact: { method: 'DELETE', url: '/chat/message/:id/reaction', params: IdParams, response: Reactions },
  /** Who of the chat has read one's own message (groups: the read receipts' list). */
  readers: { method: 'GET', url: '/chat/message/:id/readers', params: IdParams, response: Type.Object({ readers: Type.Array(PublicUser) }) },
} as const;
