import Type from 'typebox';
import { limits } from './limits.js';

/**
 * An integer in a request, bounded on both sides and finite. Ajv coerces a query string of 400 digits (or
 * "Infinity") to Infinity and then skips `maximum` for it, so every integer carries `finite`, a keyword the
 * server's validator adds; without it such a value reached PostgreSQL's bigint cast as a 500.
 */
export const Int = (options: { minimum: number; maximum: number; default?: number }) => Type.Integer({ ...options, finite: true });

/** A database id in a request: a positive integer JavaScript holds exactly (1e20 is refused with a 400). */
export const Id = Int({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });

/** The params of a route about one thing by its id (`/chat/:id`, `/user/:id`, …). */
export const IdParams = Type.Object({ id: Id });

/** A person's invite code, as their link carries it (`/link/<code>`); unknown codes are the service's to refuse. */
export const InviteCode = Type.String({ minLength: 1, maxLength: 64 });

/** An object of exactly these properties: a field the contract does not name fails its checks. */
export const strict = <T extends Record<string, Type.TSchema>>(properties: T) => Type.Object(properties, { additionalProperties: false });

/** `true` only when A and B are the same type: a compile-time check that two lists cannot drift apart. */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** A value that may be absent on the server's side: sent as null, never left out. */
export const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** The answer of a route that removes something. */
export const Deleted = Type.Object({ deleted: Type.Boolean() });

/** A phone number as typed; the server makes it E.164 (and refuses what is not a phone) itself. */
export const Phone = Type.String({ minLength: 1, maxLength: limits.phoneMaxLength, description: 'E.164, e.g. +15551234567' });

/**
 * Passwords are bounded here only so a request stays small; their rules (8–128 characters) are checked where they
 * are set, with their own error codes. At sign-in any length is simply a wrong password.
 */
export const PasswordText = Type.String({ minLength: 1, maxLength: 1024 });

/** Letters, digits and underscores, starting with a letter; a leading @ is accepted and stripped. */
export const USERNAME_PATTERN = '^@?[A-Za-z][A-Za-z0-9_]{2,59}$';

/** A username being set: a valid one, or '' / null to remove it. */
export const UsernameChange = Type.Union([Type.String({ pattern: USERNAME_PATTERN }), Type.Literal(''), Type.Null()]);

/** A sign-in (or phone-verification) code as texted: six digits. */
export const SIGN_IN_CODE_PATTERN = '^[0-9]{6}$';
