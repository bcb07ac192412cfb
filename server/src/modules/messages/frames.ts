import Type from 'typebox';
import { Compile } from 'typebox/compile';
import { TEXT_MAX } from './service.js';
import { Id } from '../../http/schema-types.js';

const Uuid = Type.String({ pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' });
const Count = Type.Integer({ minimum: 0, maximum: 2_147_483_647 });

/** What a sender may say about a file: a small object of non-negative integers, these keys only. */
export const MessageMeta = Type.Object(
  { duration_ms: Type.Optional(Count), width: Type.Optional(Count), height: Type.Optional(Count) },
  { additionalProperties: false },
);

/** Frames a client may send on the chat socket; see docs/protocol.md. */
export const ClientFrame = Type.Union([
  // A new message of any type. Which fields a type needs (text, a file) is checked in the service.
  Type.Object(
    {
      type: Type.Literal('send'),
      client_id: Uuid,
      chat_id: Id,
      message_type: Type.Optional(
        Type.Union([Type.Literal('text'), Type.Literal('image'), Type.Literal('audio'), Type.Literal('video'), Type.Literal('document')]),
      ),
      // Length is checked after trimming, in the service; this only bounds the frame.
      text: Type.Optional(Type.String({ maxLength: TEXT_MAX * 2 })),
      file_path: Type.Optional(Type.String({ maxLength: 200 })),
      meta: Type.Optional(MessageMeta),
      reply_to_id: Type.Optional(Id),
    },
    { additionalProperties: false },
  ),
  // A forward: everything is copied from the forwarded message.
  Type.Object(
    { type: Type.Literal('send'), client_id: Uuid, chat_id: Id, forward_message_id: Id },
    { additionalProperties: false },
  ),
  Type.Object({ type: Type.Literal('ping') }, { additionalProperties: false }),
  // "I am typing in this chat": passed on to its other members as a live signal, no answer (docs/protocol.md).
  Type.Object({ type: Type.Literal('typing'), chat_id: Id }, { additionalProperties: false }),
  // Spec §7: hanging up a call; `text` is the chat id, as a string. Ours add `call_id`, the call meant: a hang-up
  // repeated after that call is over ends nothing (a newer call of the chat goes on).
  Type.Object(
    { type: Type.Literal('hang'), text: Type.String({ pattern: '^[1-9][0-9]{0,15}$' }), call_id: Type.Optional(Id) },
    { additionalProperties: false },
  ),
]);

export type ClientFrame = Type.Static<typeof ClientFrame>;
export type SendFrame = Exclude<ClientFrame, { type: 'ping' } | { type: 'hang' } | { type: 'typing' }>;

export const clientFrame = Compile(ClientFrame);
