import { createECDH, createPublicKey, randomBytes, type ECDH } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { compactVerify } from 'jose';
// http_ece is what web-push encrypts with; here it decrypts, as a browser would (RFC 8188/8291).
import ece from 'http_ece';

/** A push as the browser of a subscription would get it: checked, decrypted, with the headers that came along. */
export interface ReceivedPush {
  subscription: string;
  payload: any;
  ttl: number;
  topic: string | undefined;
  urgency: string | undefined;
  /** The VAPID token's claims, its signature checked against the key it came with. */
  vapid: { aud: string; exp: number; sub: string; key: string };
}

/** A browser's side of a subscription: what it would send the server, and the secrets it keeps. */
export interface FakeBrowserSubscription {
  id: string;
  json: { endpoint: string; keys: { p256dh: string; auth: string } };
  ecdh: ECDH;
  auth: Buffer;
}

/**
 * A push service of the test's own (the part of FCM or Mozilla's service a browser reaches): it takes the
 * server's posts for subscriptions it made up and decrypts them with the subscription's private key, checking
 * the VAPID signature on the way. What the server does is the real protocol; only the far end is ours.
 */
export class LocalPushService {
  readonly received: ReceivedPush[] = [];
  /** Subscriptions the "browser" dropped: their endpoint answers 410 Gone. */
  readonly gone = new Set<string>();
  /** Posts refused as malformed (a bad signature, encoding or payload): a test expects none. */
  readonly refused: string[] = [];
  private readonly subscriptions = new Map<string, FakeBrowserSubscription>();
  private server!: Server;
  origin = '';

  static async start(): Promise<LocalPushService> {
    const service = new LocalPushService();
    service.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        service.take(request.url ?? '', request.headers, Buffer.concat(chunks)).then(
          (status) => response.writeHead(status).end(),
          (error: unknown) => {
            service.refused.push(String(error));
            response.writeHead(400).end(String(error));
          },
        );
      });
    });
    await new Promise<void>((resolve) => service.server.listen(0, '127.0.0.1', resolve));
    service.origin = `http://127.0.0.1:${(service.server.address() as AddressInfo).port}`;
    return service;
  }

  subscribe(): FakeBrowserSubscription {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = randomBytes(16);
    const id = randomBytes(12).toString('hex');
    const subscription = {
      id,
      ecdh,
      auth,
      json: { endpoint: `${this.origin}/push/${id}`, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } },
    };
    this.subscriptions.set(id, subscription);
    return subscription;
  }

  for(subscription: FakeBrowserSubscription): ReceivedPush[] {
    return this.received.filter((push) => push.subscription === subscription.id);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async take(url: string, headers: Record<string, string | string[] | undefined>, body: Buffer): Promise<number> {
    const id = /^\/push\/([0-9a-f]+)$/.exec(url)?.[1];
    const subscription = id ? this.subscriptions.get(id) : undefined;
    if (!subscription) return 404;
    if (this.gone.has(subscription.id)) return 410;
    if (headers['content-encoding'] !== 'aes128gcm') throw new Error(`content-encoding ${String(headers['content-encoding'])}`);
    const vapid = await this.checkVapid(String(headers.authorization ?? ''));
    const plain = ece.decrypt(body, { version: 'aes128gcm', privateKey: subscription.ecdh, authSecret: subscription.auth.toString('base64url') });
    this.received.push({
      subscription: subscription.id,
      payload: JSON.parse(plain.toString('utf8')),
      ttl: Number(headers.ttl),
      topic: headers.topic as string | undefined,
      urgency: headers.urgency as string | undefined,
      vapid,
    });
    return 201;
  }

  /** `vapid t=<ES256 JWT>, k=<public key>` (RFC 8292): the token must verify against the key it names. */
  private async checkVapid(header: string): Promise<ReceivedPush['vapid']> {
    const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header);
    if (!match) throw new Error(`not a VAPID authorization: ${header}`);
    const [, token, key] = match as unknown as [string, string, string];
    const point = Buffer.from(key, 'base64url');
    const publicKey = createPublicKey({
      key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') },
      format: 'jwk',
    });
    const { payload } = await compactVerify(token, publicKey, { algorithms: ['ES256'] });
    const claims = JSON.parse(Buffer.from(payload).toString('utf8'));
    return { aud: claims.aud, exp: claims.exp, sub: claims.sub, key };
  }
}
