import Type from 'typebox';
import { Id } from '../../http/schema-types.js';

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
  { user_id: Id, name: Name },
  { additionalProperties: false },
);

export const ContactIdParams = Type.Object({ id: Id });
