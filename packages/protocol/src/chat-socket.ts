import Type, { type Static, type TSchema } from 'typebox';
import { Id, type Same } from './common.js';
import { Message, type MessageType } from './chats.js';
import { limits } from './limits.js';

// The chat socket (`/chat`, docs/protocol.md): what a client sends on it and what the server answers.

const Uuid = Type.String({ pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' });
const Count = Type.Integer({ minimum: 0, maximum: 2_147_483_647 });

/** The types a person sends (a call's message is the server's own). */
export const SendableType = Type.Union([Type.Literal('text'), Type.Literal('image'), Type.Literal('audio'), Type.Literal('video'), Type.Literal('document')]);
export type SendableType = Static<typeof SendableType>;
// Every type but `call`, and no other: the two lists cannot drift apart.
const sendableIsEveryTypeButCall: Same<SendableType, Exclude<MessageType, 'call'>> = true;
void sendableIsEveryTypeButCall;

/** What a sender may say about a file: a small object of non-negative integers, these keys only. */
export const SendMeta = Type.Object(
  { duration_ms: Type.Optional(Count), width: Type.Optional(Count), height: Type.Optional(Count) },
  { additionalProperties: false },
);

/** A new message of any type. Which fields a type needs (text, a file) is checked by the server's service. */
export const SendFrame = Type.Object(
  {
    type: Type.Literal('send'),
    client_id: Uuid,
    chat_id: Id,
    message_type: Type.Optional(SendableType),
    // Length is checked after trimming, by the server; this only bounds the frame.
    text: Type.Optional(Type.String({ maxLength: limits.textMax * 2 })),
    file_path: Type.Optional(Type.String({ maxLength: 200 })),
    meta: Type.Optional(SendMeta),
    reply_to_id: Type.Optional(Id),
  },
  { additionalProperties: false },
);

/** A forward: everything is copied from the forwarded message. */
export const ForwardFrame = Type.Object(
  { type: Type.Literal('send'), client_id: Uuid, chat_id: Id, forward_message_id: Id },
  { additionalProperties: false },
);

/** "I am typing in this chat": passed on to its other members as a live signal, no answer. */
export const TypingFrame = Type.Object({ type: Type.Literal('typing'), chat_id: Id }, { additionalProperties: false });
export type TypingFrame = Static<typeof TypingFrame>;

/**
 * Spec §7: hanging up a call; `text` is the chat id, as a string. Ours add `call_id`, the call meant: a hang-up
 * repeated after that call is over ends nothing (a newer call of the chat goes on).
 */
export const HangFrame = Type.Object(
  { type: Type.Literal('hang'), text: Type.String({ pattern: '^[1-9][0-9]{0,15}$' }), call_id: Type.Optional(Id) },
  { additionalProperties: false },
);

/** Every frame a client may send on the chat socket. */
export const ChatClientFrame = Type.Union([SendFrame, ForwardFrame, Type.Object({ type: Type.Literal('ping') }, { additionalProperties: false }), TypingFrame, HangFrame]);
export type ChatClientFrame = Static<typeof ChatClientFrame>;
export type OutgoingMessage = Omit<Static<typeof SendFrame>, 'type'> | Omit<Static<typeof ForwardFrame>, 'type'>;

/** What the server answers on the chat socket, by `type`. */
export const chatServerFrames = {
  /** A send is stored (after its commit): the message as stored; a repeat of its client id gets the original. */
  ack: Type.Object({ type: Type.Literal('ack'), client_id: Type.String(), message: Message }, { additionalProperties: false }),
  /**
   * A frame refused: of a send (its client id), of a hang-up (its chat id), a typing signal (neither) or a frame
   * that could not be read. 429 `rate_limited` says how long to wait before sending again.
   */
  error: Type.Object(
    {
      type: Type.Literal('error'),
      error: Type.String(),
      message: Type.String(),
      status: Type.Optional(Type.Integer()),
      client_id: Type.Optional(Type.String()),
      chat_id: Type.Optional(Type.Integer()),
      retry_after_ms: Type.Optional(Type.Number({ minimum: 0 })),
    },
    { additionalProperties: false },
  ),
  pong: Type.Object({ type: Type.Literal('pong') }, { additionalProperties: false }),
  /** A hang-up was done. */
  hung: Type.Object({ type: Type.Literal('hung'), chat_id: Type.Integer() }, { additionalProperties: false }),
};
export type ChatServerFrame = Static<(typeof chatServerFrames)[keyof typeof chatServerFrames]>;

/** The schema of a chat-socket answer by its `type`, or none if unknown. */
export function chatServerFrameSchema(frame: { type?: unknown }): TSchema | undefined {
  const type = String(frame.type);
  return Object.hasOwn(chatServerFrames, type) ? chatServerFrames[type as keyof typeof chatServerFrames] : undefined;
}
