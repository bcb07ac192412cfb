import Type from 'typebox';

const Id = Type.Integer({ minimum: 1 });

/** Private chats for now: one other participant. Groups come with their own rules (name, owner, members). */
export const CreateChatBody = Type.Object(
  {
    chat_type: Type.Literal('private'),
    participants: Type.Array(Id, { minItems: 1, maxItems: 1 }),
    name: Type.Optional(Type.String({ maxLength: 60 })),
    avatar: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])),
  },
  { additionalProperties: false },
);

export const ChatIdParams = Type.Object({ id: Id });
export const ChatIdQuery = Type.Object({ chat_id: Id });

export const HistoryQuery = Type.Object({
  chat_id: Id,
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  page_num: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  before_id: Type.Optional(Id),
});
