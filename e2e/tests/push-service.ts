/**
 * The push service of the end-to-end run (the part of FCM a browser would reach): the server accepts it as a
 * push endpoint (PUSH_EXTRA_ORIGINS in playwright.config.ts) and posts encrypted pushes to it; a test decrypts
 * each with the subscription's keys and hands it to a browser's service worker through DevTools, as the real push
 * service would. Headless Chromium cannot subscribe with a real one (there is none it can reach), so the
 * subscription is the test's own; everything from the server to the notification on screen is the product's.
 */
import { createECDH, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import ece from 'http_ece';

export const PUSH_SERVICE_PORT = Number(process.env.E2E_PUSH_PORT ?? 18_082);
export const PUSH_SERVICE_ORIGIN = `http://127.0.0.1:${PUSH_SERVICE_PORT}`;

export interface Subscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export class LocalPushService {
  /** Decrypted payloads, by subscription endpoint, in arrival order. */
  readonly received = new Map<string, unknown[]>();
  private readonly secrets = new Map<string, { ecdh: ReturnType<typeof createECDH>; auth: Buffer }>();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<LocalPushService> {
    const server = createServer();
    const service = new LocalPushService(server);
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => response.writeHead(service.take(request.url ?? '', Buffer.concat(chunks))).end());
    });
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(PUSH_SERVICE_PORT, '127.0.0.1', resolve));
    return service;
  }

  /** A new subscription, as a browser's `PushSubscription.toJSON()` gives it. */
  subscribe(): Subscription {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = randomBytes(16);
    const endpoint = `${PUSH_SERVICE_ORIGIN}/push/${randomBytes(12).toString('hex')}`;
    this.secrets.set(new URL(endpoint).pathname, { ecdh, auth });
    return { endpoint, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } };
  }

  pushesFor(subscription: Subscription): unknown[] {
    return this.received.get(new URL(subscription.endpoint).pathname) ?? [];
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private take(path: string, body: Buffer): number {
    const secrets = this.secrets.get(path);
    if (!secrets) return 404;
    const plain = ece.decrypt(body, { version: 'aes128gcm', privateKey: secrets.ecdh, authSecret: secrets.auth.toString('base64url') });
    const list = this.received.get(path) ?? [];
    list.push(JSON.parse(plain.toString('utf8')));
    this.received.set(path, list);
    return 201;
  }
}
