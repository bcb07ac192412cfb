import Type from 'typebox';

// The users routes' wire shapes live in the shared contract (packages/protocol), the client's as well.
export {
  BlockUserBody,
  EditUserBody,
  FindUserQuery,
  PersonParams as UserIdParams,
  PhoneBody,
  USERNAME_PATTERN,
  VerifyPhoneBody,
  userRoutes,
} from '@messenger/protocol';

/** `?code=`: the invite code of the link followed (the last part of `{host}/link/{code}`). */
export const LinkQuery = Type.Object({ code: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false });
