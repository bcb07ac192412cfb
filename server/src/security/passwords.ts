import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { randomCode } from './secrets.js';
import { GENERATED_PASSWORD } from '@messenger/protocol';
import { characterCount } from '../http/text.js';

/**
 * Staff passwords, stored as scrypt hashes: `scrypt$<log2 N>$<r>$<p>$<salt>$<key>` (salt and key in base64url).
 * The parameters travel with each hash, so they can be raised later without breaking the stored ones. The
 * server's cost for new hashes is its `passwordHashCost` setting (PASSWORD_HASH_COST, this by default).
 */
export const DEFAULT_PASSWORD_HASH_COST = 15;
const R = 8;
const P = 1;
const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** The highest work factor the server hashes at (PASSWORD_HASH_COST): 2¹⁷ needs 128 MiB a hash. */
export const MAX_PASSWORD_HASH_COST = 17;

/** scrypt needs 128·r·(N + 2) bytes and a little more; Node's default ceiling (32 MiB) is below that at 2¹⁵. */
function memoryFor(log2n: number, r: number): number {
  return 128 * r * (2 ** log2n + 2) + 1024 * 1024;
}

/** Length rules of docs/api.md (`POST /user/password`), counted in characters, not bytes. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

function derive(password: string, salt: Buffer, log2n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, { N: 2 ** log2n, r, p, maxmem: memoryFor(log2n, r) }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** `cost`: log2 of scrypt's N, the server's `passwordHashCost`. */
export async function hashPassword(password: string, cost: number): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, cost, R, P);
  return ['scrypt', cost, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * Whether `password` matches `stored`; compared in constant time. A malformed stored value never matches.
 * `cost`: the server's `passwordHashCost`, spent when there is no hash to check against.
 */
export async function verifyPassword(password: string, stored: string | null, cost: number): Promise<boolean> {
  const parts = (stored ?? '').split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') {
    // Spend the same time as a real check, so a missing hash cannot be told apart by timing.
    await derive(password, randomBytes(SALT_BYTES), cost, R, P);
    return false;
  }
  const [log2n, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const salt = Buffer.from(parts[4]!, 'base64url');
  const expected = Buffer.from(parts[5]!, 'base64url');
  if (![log2n, r, p].every((value) => Number.isInteger(value) && value > 0) || log2n > MAX_PASSWORD_HASH_COST || r > R || p > P || expected.length !== KEY_BYTES) return false;
  const actual = await derive(password, salt, log2n, r, p);
  return timingSafeEqual(actual, expected);
}

/** The work factor a stored hash was made at (log2 of N), or null for none. */
export function hashCost(stored: string | null): number | null {
  const parts = (stored ?? '').split('$');
  return parts.length === 6 && parts[0] === 'scrypt' ? Number(parts[1]) : null;
}

/** A password from the CSPRNG, of the contract's alphabet and length (the admin's screen suggests the same kind). */
export function generatePassword(): string {
  return randomCode(GENERATED_PASSWORD.length, GENERATED_PASSWORD.alphabet);
}

/** Two different generated passwords (the extra password must differ from the password). */
export function generatePasswordPair(): { password: string; extra_password: string } {
  const password = generatePassword();
  let extra = generatePassword();
  while (extra === password) extra = generatePassword();
  return { password, extra_password: extra };
}

export function passwordLength(password: string): number {
  return characterCount(password);
}
