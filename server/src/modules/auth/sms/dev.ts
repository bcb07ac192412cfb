import type { FastifyBaseLogger } from 'fastify';
import type { SmsProvider } from './provider.js';

/**
 * Development provider: nothing leaves the machine. Each code is printed to the server log and kept in an
 * outbox (`GET /api/dev/sms`) so that people and end-to-end tests can sign in without a phone.
 * The server refuses to start with it under NODE_ENV=production.
 */
export class DevSmsProvider implements SmsProvider {
  readonly name = 'dev';
  private readonly latestCode = new Map<string, string>();
  /** In a cluster: tells the other nodes of each code, so that every node's outbox has it (services.ts). */
  onSent: ((phone: string, code: string) => void) | null = null;

  constructor(private readonly logger: FastifyBaseLogger) {}

  async send(phone: string, text: string): Promise<void> {
    const code = /\b(\d{6})\b/.exec(text)?.[1];
    if (code) {
      this.record(phone, code);
      this.onSent?.(phone, code);
    }
    // Printed on purpose: this provider exists so that a developer can read the code.
    this.logger.info(`[dev sms] to ${phone}: ${text}`);
  }

  /** A code sent to `phone`, here or by another node of the cluster. */
  record(phone: string, code: string): void {
    this.latestCode.set(phone, code);
  }

  codeFor(phone: string): string | undefined {
    return this.latestCode.get(phone);
  }
}
