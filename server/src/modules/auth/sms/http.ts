import { SmsDeliveryError, type SmsProvider } from './provider.js';

export interface HttpSmsOptions {
  url: string;
  token: string | undefined;
  sender: string;
  timeoutMs?: number;
}

/**
 * A generic HTTP SMS gateway: `POST {url}` with JSON `{to, from, text}` and `Authorization: Bearer {token}`,
 * any 2xx meaning accepted. Most gateways (or a small adapter in front of one) speak this shape.
 */
export class HttpSmsProvider implements SmsProvider {
  readonly name = 'http';

  constructor(private readonly options: HttpSmsOptions) {}

  async send(phone: string, text: string): Promise<void> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    let response: Response;
    try {
      response = await fetch(this.options.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ to: phone, from: this.options.sender, text }),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
    } catch (error) {
      throw new SmsDeliveryError(`SMS gateway unreachable: ${(error as Error).name}`);
    }
    // Drain the body so the connection can be reused; its content is not needed.
    await response.arrayBuffer().catch(() => undefined);
    if (!response.ok) throw new SmsDeliveryError(`SMS gateway answered ${response.status}`);
  }
}
