import { ChatSocket, type OutgoingMessage } from './chat-socket';
import { config } from '../config';
import type { Message } from '../model/types';
import { storedMessage } from '../testing/messages';

/** A stand-in for the browser WebSocket: records what is sent, and the test answers as the server would. */
class FakeSocket {
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: Array<OutgoingMessage & { type: string }> = [];
  onopen: (() => void) | null = null;
  onmessage: ((message: { data: string }) => void) | null = null;
  onclose: ((close: { code: number }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  open() {
    this.readyState = WebSocket.OPEN;
    this.onopen?.();
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  reply(frame: unknown) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
  ack(label: string) {
    this.reply({ type: 'ack', client_id: clientId(label), message: storedMessage(1, 1, 1, { client_id: clientId(label) }) });
  }
  close() {}
}

/** The client id of message `c<n>`: a UUID, as the contract asks (the tests name them c1, c2…). */
const clientId = (label: string) => `00000000-0000-4000-8000-${label.slice(1).padStart(12, '0')}`;
const frame = (n: number): OutgoingMessage => ({ client_id: clientId(`c${n}`), chat_id: 1, text: `m${n}` });
const ids = (frames: Array<{ client_id: string }>) => frames.map((sent) => `c${Number(sent.client_id.slice(-12))}`);

function setup() {
  FakeSocket.all = [];
  const socket = new ChatSocket({
    url: (token) => `ws://test/chat?token=${token}`,
    getToken: async () => 'tok',
    createSocket: (url) => new FakeSocket(url) as unknown as WebSocket,
  });
  return socket;
}

describe('ChatSocket', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate', 'queueMicrotask'] }));
  afterEach(() => jest.useRealTimers());

  it('closed while its token comes, it opens no socket with that token; wanted again, it opens with a new one', async () => {
    FakeSocket.all = [];
    const tokens: Array<(token: string) => void> = [];
    const chat = new ChatSocket({
      url: (token) => `ws://test/chat?token=${token}`,
      getToken: () => new Promise<string>((resolve) => tokens.push(resolve)),
      createSocket: (url) => new FakeSocket(url) as unknown as WebSocket,
    });
    void chat.send(frame(1)).catch(() => undefined);
    chat.close(); // signed out while the token was on its way
    void chat.send(frame(2)).catch(() => undefined); // the next session
    tokens[0]!('first-session');
    await jest.advanceTimersByTimeAsync(0);
    expect(FakeSocket.all).toHaveLength(0);
    tokens[1]!('second-session');
    await jest.advanceTimersByTimeAsync(0);
    expect(FakeSocket.all.map((socket) => socket.url)).toEqual(['ws://test/chat?token=second-session']);
    chat.close();
  });

  it('sends a typing signal when the socket opens, unless it waited too long, and never again', async () => {
    const chat = setup();
    chat.signal({ type: 'typing', chat_id: 7 });
    await jest.advanceTimersByTimeAsync(0);
    const first = FakeSocket.all[0]!;
    first.open();
    expect(first.sent).toEqual([{ type: 'typing', chat_id: 7 }]);
    chat.signal({ type: 'typing', chat_id: 8 });
    expect(first.sent).toHaveLength(2);
    first.onclose?.({ code: 1006 });
    expect(first.sent).toHaveLength(2);

    const late = setup();
    late.signal({ type: 'typing', chat_id: 7 });
    await jest.advanceTimersByTimeAsync(config.typingSignalEveryMs + 1);
    FakeSocket.all[0]!.open();
    expect(FakeSocket.all[0]!.sent).toEqual([]);
  });

  it('keeps at most sendWindow sends unanswered and sends the rest, in order, as answers come', async () => {
    const chat = setup();
    const total = config.sendWindow + 5;
    const results: Array<Promise<Message>> = [];
    for (let n = 1; n <= total; n += 1) results.push(chat.send(frame(n)));
    await jest.advanceTimersByTimeAsync(0);
    const fake = FakeSocket.all[0]!;
    fake.open();
    expect(ids(fake.sent)).toEqual(Array.from({ length: config.sendWindow }, (_, i) => `c${i + 1}`));
    fake.ack('c1');
    fake.ack('c2');
    expect(fake.sent).toHaveLength(config.sendWindow + 2);
    expect(ids(fake.sent).at(-1)).toBe(`c${config.sendWindow + 2}`);
    for (let n = 3; n <= total; n += 1) fake.ack(`c${n}`);
    expect(ids(fake.sent)).toEqual(Array.from({ length: total }, (_, i) => `c${i + 1}`));
    await expect(Promise.all(results)).resolves.toHaveLength(total);
  });

  it('waits out a rate limit and sends the refused message and everything after it again, in order, without failing them', async () => {
    const chat = setup();
    const results = [1, 2, 3, 4].map((n) => chat.send(frame(n)));
    await jest.advanceTimersByTimeAsync(0);
    const fake = FakeSocket.all[0]!;
    fake.open();
    expect(ids(fake.sent)).toEqual(['c1', 'c2', 'c3', 'c4']);
    fake.ack('c1');
    // The server lets c1 through, then asks to wait 2 s: c2 and what follows are refused the same way.
    for (const id of ['c2', 'c3', 'c4']) {
      fake.reply({ type: 'error', client_id: clientId(id), error: 'rate_limited', message: 'Too many messages', status: 429, retry_after_ms: 2_000 });
    }
    const five = chat.send(frame(5));
    await jest.advanceTimersByTimeAsync(1_900);
    expect(ids(fake.sent)).toEqual(['c1', 'c2', 'c3', 'c4']); // nothing while waiting, not even the new one
    await jest.advanceTimersByTimeAsync(300);
    expect(ids(fake.sent.slice(4))).toEqual(['c2', 'c3', 'c4', 'c5']);
    for (const id of ['c2', 'c3', 'c4', 'c5']) fake.ack(id);
    await expect(Promise.all([...results, five])).resolves.toHaveLength(5);
  });

  it('takes back a send that never left, never one that was written (the server may have it), even after a drop', async () => {
    const chat = setup();
    const written: string[] = [];
    const first = chat.send(frame(1), () => written.push('c1'));
    const second = chat.send(frame(2), () => written.push('c2'));
    expect(chat.cancel(clientId('c2'))).toBe(true);
    await expect(second).rejects.toMatchObject({ code: 'cancelled' });
    await jest.advanceTimersByTimeAsync(0);
    const fake = FakeSocket.all[0]!;
    fake.open();
    expect(ids(fake.sent)).toEqual(['c1']);
    expect(written).toEqual(['c1']);
    // Dropped before its answer: no longer in flight, but it went out once.
    fake.onclose?.({ code: 1006 });
    expect(chat.cancel(clientId('c1'))).toBe(false);
    expect(chat.isPending(clientId('c1'))).toBe(true);
    expect(chat.cancel(clientId('c9'))).toBe(true);
    chat.close();
    void first.catch(() => undefined);
  });

  it('rejects a send the server refuses for what it is (not for its pace)', async () => {
    const chat = setup();
    const result = chat.send(frame(1));
    await jest.advanceTimersByTimeAsync(0);
    const fake = FakeSocket.all[0]!;
    fake.open();
    fake.reply({ type: 'error', client_id: clientId('c1'), error: 'message_too_long', status: 400, message: 'too long' });
    await expect(result).rejects.toMatchObject({ status: 400, code: 'message_too_long' });
  });

  it('hangs up on the same socket: sent when it opens, again after a drop, settled by hung', async () => {
    const chat = setup();
    const hung = chat.hang(12);
    expect(chat.hang(12)).toBe(hung); // a second click shares the first
    await jest.advanceTimersByTimeAsync(0);
    const first = FakeSocket.all[0]!;
    first.open();
    expect(first.sent).toEqual([{ type: 'hang', text: '12' }]);
    // The connection drops before the answer: the hang-up goes again on the next socket.
    first.onclose?.({ code: 1006 });
    await jest.advanceTimersByTimeAsync(5_000);
    const second = FakeSocket.all[1]!;
    second.open();
    expect(second.sent).toEqual([{ type: 'hang', text: '12' }]);
    // A typing refusal (no chat id) is not the hang-up's answer.
    second.reply({ type: 'error', error: 'muted', status: 403, message: 'muted' });
    second.reply({ type: 'hung', chat_id: 12 });
    await expect(hung).resolves.toBeUndefined();
    // The same socket serves the sends.
    const sent = chat.send(frame(1));
    expect(ids(second.sent.slice(1))).toEqual(['c1']);
    second.ack('c1');
    await expect(sent).resolves.toMatchObject({ client_id: clientId('c1') });
  });

  it("rejects a hang-up the server refuses, or one it never answers", async () => {
    const chat = setup();
    const refused = chat.hang(3);
    const unanswered = chat.hang(4);
    await jest.advanceTimersByTimeAsync(0);
    const fake = FakeSocket.all[0]!;
    fake.open();
    fake.reply({ type: 'error', chat_id: 3, error: 'no_call', status: 404, message: 'No call is running in this chat' });
    await expect(refused).rejects.toMatchObject({ status: 404, code: 'no_call' });
    const outcome = expect(unanswered).rejects.toMatchObject({ code: 'network' });
    await jest.advanceTimersByTimeAsync(config.hangAnswerMs);
    await outcome;
  });

  it('names the call in a hang-up when it knows it', async () => {
    const chat = setup();
    const hung = chat.hang(12, 345);
    await jest.advanceTimersByTimeAsync(0);
    const fake = FakeSocket.all[0]!;
    fake.open();
    expect(fake.sent).toEqual([{ type: 'hang', text: '12', call_id: 345 }]);
    fake.reply({ type: 'hung', chat_id: 12 });
    await expect(hung).resolves.toBeUndefined();
  });

  it('sends again on the next socket what a silent one carried (no acknowledgement in time)', async () => {
    const chat = setup();
    const result = chat.send(frame(1));
    await jest.advanceTimersByTimeAsync(0);
    const first = FakeSocket.all[0]!;
    first.open();
    expect(ids(first.sent)).toEqual(['c1']);
    await jest.advanceTimersByTimeAsync(config.sendAckTimeoutMs + 5_000);
    const second = FakeSocket.all[1]!;
    second.open();
    expect(ids(second.sent)).toEqual(['c1']);
    second.ack('c1');
    await expect(result).resolves.toMatchObject({ client_id: clientId('c1') });
  });
});
