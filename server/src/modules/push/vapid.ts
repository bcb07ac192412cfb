import { createECDH } from 'node:crypto';

/** The server's VAPID key pair (RFC 8292), both halves base64url as web-push and browsers take them. */
export interface VapidKeys {
  /** The uncompressed P-256 point (65 bytes): browsers subscribe with it as `applicationServerKey`. */
  publicKey: string;
  privateKey: string;
}

/**
 * The key pair is derived from the server's master secret rather than stored apart: generated once with it,
 * the same on every node of a cluster and across restarts, so subscriptions made against it stay valid.
 */
export function vapidKeysFrom(seed: Buffer): VapidKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(seed);
  return { publicKey: ecdh.getPublicKey().toString('base64url'), privateKey: seed.toString('base64url') };
}
