/**
 * A stand-in for the browser's WebSocket on the meeting socket, driven by the test as the server: `frame` sends one
 * (`data` as JSON text, as the server does), `sent` holds what the client sent.
 */
export class FakeMeetingSocket {
  static all: FakeMeetingSocket[] = [];
  readyState = 0;
  sent: Array<{ event: string; data: string }> = [];
  closedWith: number | null = null;
  onopen: (() => void) | null = null;
  onmessage: ((message: { data: string }) => void) | null = null;
  onclose: ((close: { code: number }) => void) | null = null;
  constructor(readonly url: string) {
    FakeMeetingSocket.all.push(this);
  }
  open() {
    this.readyState = 1;
    this.onopen?.();
  }
  frame(event: string, data: unknown) {
    this.onmessage?.({ data: JSON.stringify({ event, data: JSON.stringify(data) }) });
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close(code = 1005) {
    this.closedWith = code;
    this.readyState = 3;
  }
}
