import Type from 'typebox';

/** Letters, digits and underscores, starting with a letter; a leading @ is accepted and stripped. */
export const USERNAME_PATTERN = '^@?[A-Za-z][A-Za-z0-9_]{2,59}$';

export const EditUserBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 60 })),
    username: Type.Optional(Type.Union([Type.String({ pattern: USERNAME_PATTERN }), Type.Literal(''), Type.Null()])),
    popup_notifications: Type.Optional(Type.Boolean()),
    sound_notifications: Type.Optional(Type.Boolean()),
    private_notifications: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const UserIdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });

export const FindUserQuery = Type.Object({ query: Type.String({ maxLength: 120 }) });
