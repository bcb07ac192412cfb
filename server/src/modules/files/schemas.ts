import Type from 'typebox';

// The JSON routes' shapes live in the shared contract (packages/protocol); the byte routes' queries are here.
export { MeetAudioQuery, TokensBody, TreeQuery, fileRoutes } from '@messenger/protocol';

/** The media token is the key of these URLs; no Authorization header is needed (or read). */
export const ReceiveQuery = Type.Object({ token: Type.String({ minLength: 1, maxLength: 2048 }) });

export const SpecificFileQuery = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 2048 }),
  path: Type.String({ minLength: 1, maxLength: 200 }),
});
