import Type from 'typebox';
import { InviteCode, PasswordText, Phone, SIGN_IN_CODE_PATTERN } from './common.js';
import { JwtInfo } from './users.js';

export const SendCodeBody = Type.Object({ phone: Phone }, { additionalProperties: false });

export const SignInBody = Type.Object({ phone: Phone, code: Type.String({ pattern: SIGN_IN_CODE_PATTERN }) }, { additionalProperties: false });

/** `?code=` is the invite code of the link the person came by; it attributes a new account to the inviter. */
export const SignInQuery = Type.Object({ code: Type.Optional(InviteCode) }, { additionalProperties: false });

export const SignInManagerBody = Type.Object({ phone: Phone, password: PasswordText }, { additionalProperties: false });

export const SignInManagerExtraBody = Type.Object(
  { phone: Phone, password: PasswordText, ticket: Type.String({ minLength: 1, maxLength: 128 }) },
  { additionalProperties: false },
);

export const SendCodeAnswer = Type.Object({
  is_manager: Type.Boolean(),
  /** Staff with passwords: true, and no SMS was sent. */
  password_set: Type.Boolean(),
  /** Seconds until another code may be asked for; absent when no code was sent. */
  resend_after: Type.Optional(Type.Integer()),
});

const Session = Type.Object({ jwt_info: JwtInfo });

/**
 * Signing in: a code by SMS, or a staff member's two passwords (the first answers a short-lived ticket for the
 * second), and a session's refresh. (`POST /auth/sign-out` answers 204 with no body.)
 */
export const authRoutes = {
  sendCode: { method: 'POST', url: '/auth/send-code', body: SendCodeBody, response: SendCodeAnswer },
  /** `is_new_user`: this sign-in made the account, so the client asks for a name. */
  signIn: {
    method: 'POST',
    url: '/auth/sign-in',
    body: SignInBody,
    querystring: SignInQuery,
    response: Type.Object({ jwt_info: JwtInfo, is_new_user: Type.Boolean() }),
  },
  signInManager: {
    method: 'POST',
    url: '/auth/sign-in-manager',
    body: SignInManagerBody,
    querystring: SignInQuery,
    response: Type.Object({ ticket: Type.String(), expires_in: Type.Integer() }),
  },
  signInManagerExtra: { method: 'POST', url: '/auth/sign-in-manager-extra', body: SignInManagerExtraBody, querystring: SignInQuery, response: Session },
  /** The refresh token travels in Authorization, as the spec has it; the body is empty. */
  refresh: { method: 'POST', url: '/auth/refresh', response: Session },
} as const;
