import Type from 'typebox';

const Name = Type.String({ maxLength: 60 });

export const AddContactBody = Type.Object(
  {
    user_phone: Type.Optional(Type.String({ maxLength: 25 })),
    name: Name,
    username: Type.Optional(Type.String({ maxLength: 61 })),
  },
  { additionalProperties: false },
);

export const EditContactBody = Type.Object(
  { user_id: Type.Integer({ minimum: 1 }), name: Name },
  { additionalProperties: false },
);

export const ContactIdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
