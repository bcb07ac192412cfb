import Type from 'typebox';
import { limits } from '@messenger/protocol';

export const Phone = Type.String({ minLength: 1, maxLength: limits.phoneMaxLength, description: 'E.164, e.g. +15551234567' });

export const SendCodeBody = Type.Object({ phone: Phone }, { additionalProperties: false });

export const SignInBody = Type.Object(
  { phone: Phone, code: Type.String({ pattern: '^[0-9]{6}$' }) },
  { additionalProperties: false },
);

/** `?code=` is the invite code of the link the person came by; it attributes a new account to the inviter. */
export const SignInQuery = Type.Object(
  { code: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) },
  { additionalProperties: false },
);

/**
 * Passwords are bounded here only so a request stays small; their rules (8–128 characters) are checked where they
 * are set, with their own error codes. At sign-in any length is simply a wrong password.
 */
export const PasswordText = Type.String({ minLength: 1, maxLength: 1024 });

export const SignInManagerBody = Type.Object({ phone: Phone, password: PasswordText }, { additionalProperties: false });

export const SignInManagerExtraBody = Type.Object(
  { phone: Phone, password: PasswordText, ticket: Type.String({ minLength: 1, maxLength: 128 }) },
  { additionalProperties: false },
);
