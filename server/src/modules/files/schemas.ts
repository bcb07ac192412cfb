import Type from 'typebox';

export const TokensBody = Type.Object(
  { paths: Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100 }) },
  { additionalProperties: false },
);

/** The media token is the key of these URLs; no Authorization header is needed (or read). */
export const ReceiveQuery = Type.Object({ token: Type.String({ minLength: 1, maxLength: 2048 }) });

export const SpecificFileQuery = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 2048 }),
  path: Type.String({ minLength: 1, maxLength: 200 }),
});
