import { webcrypto } from 'node:crypto';

export type HmacKey = webcrypto.CryptoKey;

/**
 * An HS256 secret as a WebCrypto key, imported once. jose signs and verifies through WebCrypto and, given the
 * secret as bytes, imports it again on every call: 800 verifications took 70–170 ms of CPU that way and 50–75 ms
 * with the key imported once (2026-11-28), which is what a restarted server pays while every client reconnects
 * with a token not yet in its cache, and every file download pays for its media token.
 */
export function hmacKey(secret: Uint8Array): Promise<HmacKey> {
  const key = webcrypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  // A failure is thrown where the key is awaited, not reported as unhandled before then.
  key.catch(() => undefined);
  return key;
}
