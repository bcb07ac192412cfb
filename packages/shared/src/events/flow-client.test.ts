import { FlowClient } from './flow-client';
import type { FlowEvent } from '../model/events';
import { storedMessage } from '../testing/messages';

/** A stand-in for the browser WebSocket, driven by the test. */
class FakeSocket {
  static all: FakeSocket[] = [];
  onmessage: ((message: { data: string }) => void) | null = null;
  onclose: ((close: { code: number }) => void) | null = null;
  closedWith: number | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  frame(frame: unknown) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
  drop(code = 1006) {
    this.onclose?.({ code });
  }
  close(code: number) {
    this.closedWith = code;
  }
}

const boris = { id: 2, name: 'Boris', username: null, avatar: null, role: 0, deleted: false };
const event = (seq: number, text = `m${seq}`): FlowEvent => ({
  seq,
  event_type: 'text',
  additional_info: { chat_id: 1, message_id: seq, message: storedMessage(seq, 1, 2, { text }), user: boris },
});

/** A started client; `reload` stands for the state's reload on a resync (none by default). */
function setup(since: number | null, reload?: () => Promise<void>) {
  FakeSocket.all = [];
  const applied: number[] = [];
  const resyncs: number[] = [];
  const client = new FlowClient({
    url: (token, from) => `ws://test/flow?token=${token}${from === null ? '' : `&since=${from}`}`,
    getToken: async () => 'tok',
    onEvent: (e) => applied.push(e.seq),
    onResync: (seq) => {
      resyncs.push(seq);
      return reload?.();
    },
    createSocket: (url) => new FakeSocket(url) as unknown as WebSocket,
  });
  client.start(since);
  return { client, applied, resyncs };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('FlowClient', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['setImmediate', 'queueMicrotask'] }));
  afterEach(() => jest.useRealTimers());

  async function settle() {
    await jest.advanceTimersByTimeAsync(0);
  }

  it('connects with the seq of the loaded state and applies events in order, once', async () => {
    const { client, applied } = setup(10);
    await settle();
    const socket = FakeSocket.all[0]!;
    expect(socket.url).toBe('ws://test/flow?token=tok&since=10');
    socket.frame(event(11));
    socket.frame(event(11)); // duplicate
    socket.frame({ event_type: 'ready', additional_info: { seq: 11 } });
    socket.frame(event(12));
    socket.frame(event(10)); // old
    expect(applied).toEqual([11, 12]);
    expect(client.seq).toBe(12);
    client.stop();
  });

  it('passes a live signal (no seq) on at once, outside the event order', async () => {
    FakeSocket.all = [];
    const applied: number[] = [];
    const signals: unknown[] = [];
    const client = new FlowClient({
      url: () => 'ws://test/flow',
      getToken: async () => 'tok',
      onEvent: (e) => applied.push(e.seq),
      onResync: () => undefined,
      onSignal: (signal) => signals.push(signal),
      createSocket: (url) => new FakeSocket(url) as unknown as WebSocket,
    });
    client.start(5);
    await settle();
    const socket = FakeSocket.all[0]!;
    const typing = { event_type: 'typing', additional_info: { chat_id: 1, user: { id: 2, name: 'Anna', username: null } } };
    socket.frame(typing);
    socket.frame(event(6));
    expect(signals).toEqual([typing]);
    expect(applied).toEqual([6]);
    expect(client.seq).toBe(6);
    client.stop();
  });

  it('holds an event that arrives ahead of a gap until the gap fills', async () => {
    const { client, applied } = setup(0);
    await settle();
    const socket = FakeSocket.all[0]!;
    socket.frame(event(2));
    socket.frame(event(3));
    expect(applied).toEqual([]);
    socket.frame(event(1));
    expect(applied).toEqual([1, 2, 3]);
    client.stop();
  });

  it('reconnects from the last applied seq when a gap stays open', async () => {
    const { client, applied } = setup(5);
    await settle();
    FakeSocket.all[0]!.frame(event(6));
    FakeSocket.all[0]!.frame(event(8));
    await jest.advanceTimersByTimeAsync(600);
    expect(FakeSocket.all).toHaveLength(2);
    expect(FakeSocket.all[1]!.url).toContain('since=6');
    FakeSocket.all[1]!.frame(event(7));
    FakeSocket.all[1]!.frame(event(8));
    expect(applied).toEqual([6, 7, 8]);
    client.stop();
  });

  it('resumes after a dropped connection with back-off, from where it was', async () => {
    const { client, applied } = setup(null);
    await settle();
    FakeSocket.all[0]!.frame({ event_type: 'ready', additional_info: { seq: 41 } });
    FakeSocket.all[0]!.frame(event(42));
    FakeSocket.all[0]!.drop();
    await jest.advanceTimersByTimeAsync(1000);
    expect(FakeSocket.all).toHaveLength(2);
    expect(FakeSocket.all[1]!.url).toContain('since=42');
    FakeSocket.all[1]!.frame(event(42));
    FakeSocket.all[1]!.frame(event(43));
    expect(applied).toEqual([42, 43]);
    client.stop();
  });

  it('asks for a new token at once when the server ends the session (4003), and only then', async () => {
    FakeSocket.all = [];
    const asked: Array<boolean | undefined> = [];
    const client = new FlowClient({
      url: (token) => `ws://test/flow?token=${token}`,
      getToken: async (renew) => {
        asked.push(renew);
        return renew ? 'renewed' : 'tok';
      },
      onEvent: () => undefined,
      onResync: () => undefined,
      createSocket: (url) => new FakeSocket(url) as unknown as WebSocket,
    });
    client.start(null);
    await settle();
    FakeSocket.all[0]!.drop(4003);
    await settle();
    expect(FakeSocket.all).toHaveLength(2);
    expect(FakeSocket.all[1]!.url).toContain('token=renewed');
    expect(asked).toEqual([false, true]);
    client.stop();
  });

  it('asks for a reload on resync and continues from the head it names', async () => {
    const { client, applied, resyncs } = setup(999);
    await settle();
    FakeSocket.all[0]!.frame({ event_type: 'resync', additional_info: { seq: 50 } });
    FakeSocket.all[0]!.frame(event(51));
    expect(resyncs).toEqual([50]);
    expect(applied).toEqual([51]);
    client.stop();
  });

  it('holds the events that come while the resync reload runs, and applies them in order after it', async () => {
    let reloaded: () => void = () => undefined;
    const { client, applied } = setup(999, () => new Promise<void>((resolve) => (reloaded = resolve)));
    await settle();
    const socket = FakeSocket.all[0]!;
    socket.frame({ event_type: 'resync', additional_info: { seq: 50 } });
    socket.frame(event(52));
    socket.frame(event(51));
    socket.frame(event(51));
    await settle();
    expect(applied).toEqual([]); // the reload still runs: its state would overwrite them
    reloaded();
    await settle();
    expect(applied).toEqual([51, 52]);
    socket.frame(event(53));
    expect(applied).toEqual([51, 52, 53]);
    client.stop();
  });

  it('closes with 1000 "Manual close" and stays closed when stopped', async () => {
    const { client } = setup(0);
    await settle();
    const socket = FakeSocket.all[0]!;
    client.stop();
    expect(socket.closedWith).toBe(1000);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(FakeSocket.all).toHaveLength(1);
    await flush;
  });

  it('is offline as soon as the browser goes offline, and resumes from its seq when it is back', async () => {
    const statuses: string[] = [];
    FakeSocket.all = [];
    const client = new FlowClient({
      url: (token, from) => `ws://test/flow?token=${token}${from === null ? '' : `&since=${from}`}`,
      getToken: async () => 'tok',
      onEvent: () => undefined,
      onResync: () => undefined,
      onStatus: (status) => statuses.push(status),
      createSocket: (url) => new FakeSocket(url) as unknown as WebSocket,
    });
    client.start(5);
    await settle();
    const first = FakeSocket.all[0]!;
    first.frame({ event_type: 'ready', additional_info: { seq: 5 } });
    first.frame(event(6));
    expect(statuses.at(-1)).toBe('online');
    window.dispatchEvent(new Event('offline'));
    expect(statuses.at(-1)).toBe('offline');
    expect(first.closedWith).toBe(1000);
    window.dispatchEvent(new Event('online'));
    await settle();
    const second = FakeSocket.all.at(-1)!;
    expect(second).not.toBe(first);
    expect(second.url).toBe('ws://test/flow?token=tok&since=6');
    second.frame({ event_type: 'ready', additional_info: { seq: 6 } });
    expect(statuses.at(-1)).toBe('online');
    client.stop();
  });
});
