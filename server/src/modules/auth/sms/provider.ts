/** Sends text messages to phones. The server never logs what it sends: it may hold a sign-in code. */
export interface SmsProvider {
  readonly name: string;
  send(phone: string, text: string): Promise<void>;
}

export class SmsDeliveryError extends Error {}
