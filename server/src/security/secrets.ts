import { createHash, hkdfSync, randomBytes, randomInt } from 'node:crypto';
import type { Db } from '../db/index.js';

export interface Secrets {
  /** HMAC key for access JWTs. */
  jwtKey: Uint8Array;
  /** HMAC key for media JWTs: a separate key, so neither kind of token can ever pass for the other. */
  mediaKey: Uint8Array;
  /** HMAC key for meeting tokens (the key of the meeting socket). */
  meetKey: Uint8Array;
  /** HMAC key for one-time code hashes. */
  otpKey: Buffer;
  /** The private key of the server's VAPID key pair (Web Push), a P-256 scalar. */
  vapidSeed: Buffer;
}

/**
 * Keys come from JWT_SECRET when it is set; otherwise a random master secret is made once and kept in the
 * database, so that restarts do not sign everybody out and several servers sharing a database agree.
 */
export async function loadSecrets(db: Db, configured: string | undefined): Promise<Secrets> {
  const master = configured ?? (await storedMaster(db));
  const derive = (purpose: string) => Buffer.from(hkdfSync('sha256', master, 'messenger', purpose, 32));
  return {
    jwtKey: new Uint8Array(derive('access-jwt')),
    mediaKey: new Uint8Array(derive('media-jwt')),
    meetKey: new Uint8Array(derive('meet-jwt')),
    otpKey: derive('otp-hmac'),
    vapidSeed: derive('vapid-p256'),
  };
}

async function storedMaster(db: Db): Promise<string> {
  const candidate = randomBytes(32).toString('base64url');
  // Insert-if-absent then read: whichever server starts first wins, the others read its value.
  await db.query(`INSERT INTO server_secrets (name, value) VALUES ('master', $1) ON CONFLICT (name) DO NOTHING`, [
    candidate,
  ]);
  const rows = await db.query<{ value: string }>(`SELECT value FROM server_secrets WHERE name = 'master'`);
  const value = rows[0]?.value;
  if (!value) throw new Error('could not load the server secret');
  return value;
}

/** Opaque tokens are stored only as their SHA-256: a database leak does not leak usable tokens. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

const ALPHANUMERIC = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** Random code from an alphabet without look-alike characters (invite codes); randomInt is unbiased. */
export function randomCode(length: number, alphabet = ALPHANUMERIC): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += alphabet[randomInt(alphabet.length)];
  return out;
}
