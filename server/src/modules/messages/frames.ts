import Type from 'typebox';
import { Compile } from 'typebox/compile';
import { TEXT_MAX } from './service.js';

const Uuid = Type.String({ pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' });

/** Frames a client may send on the chat socket; see docs/protocol.md. */
export const ClientFrame = Type.Union([
  Type.Object(
    {
      type: Type.Literal('send'),
      client_id: Uuid,
      chat_id: Type.Integer({ minimum: 1 }),
      message_type: Type.Optional(Type.Literal('text')),
      // Length is checked after trimming, in the service; this only bounds the frame.
      text: Type.String({ maxLength: TEXT_MAX * 2 }),
    },
    { additionalProperties: false },
  ),
  Type.Object({ type: Type.Literal('ping') }, { additionalProperties: false }),
]);

export type ClientFrame = Type.Static<typeof ClientFrame>;

export const clientFrame = Compile(ClientFrame);
