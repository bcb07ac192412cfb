import Type from 'typebox';
import { Phone, PasswordText } from '@messenger/protocol';

export { Phone, PasswordText };

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

export const SignInManagerBody = Type.Object({ phone: Phone, password: PasswordText }, { additionalProperties: false });

export const SignInManagerExtraBody = Type.Object(
  { phone: Phone, password: PasswordText, ticket: Type.String({ minLength: 1, maxLength: 128 }) },
  { additionalProperties: false },
);
