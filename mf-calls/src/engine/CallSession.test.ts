import { callsApi, type MeetingHandlers, type MeetingTicket } from '@messenger/shared';
import { CallSession, type SessionEnd, type SessionSnapshot } from './CallSession';
import { CallRecorder } from './recorder';

// The engine's own decisions, with the browser's media and the SFU's connection replaced by stand-ins: jsdom has
// neither WebRTC nor cameras (the browser tests in e2e/tests/calls.spec.ts drive the real ones).
const connections: FakeConnection[] = [];

class FakeConnection {
  readonly pc = Object.assign(new EventTarget(), { connectionState: 'new' as RTCPeerConnectionState });
  readonly close = jest.fn();
  readonly replaceVideo = jest.fn(async () => undefined);
  constructor(
    readonly chatId: number,
    readonly ticket: MeetingTicket,
    readonly myId: number,
    readonly outgoing: unknown,
    readonly handlers: MeetingHandlers,
  ) {
    connections.push(this);
  }
}

jest.mock('@messenger/shared', () => ({
  ...jest.requireActual('@messenger/shared'),
  callsApi: { ticket: jest.fn() },
  acquireCallMedia: jest.fn(async () => ({ stream: new FakeStream([fakeTrack('audio')]), cameraError: null })),
  takeMeetingHeadStart: jest.fn(() => null),
  hangUpCall: jest.fn(async () => undefined),
  markCallStage: jest.fn(),
  MeetingConnection: jest.fn((...args: ConstructorParameters<typeof FakeConnection>) => new FakeConnection(...args)),
}));
jest.mock('./blank-video', () => ({ blankVideoTrack: () => fakeTrack('video') }));
jest.mock('./stats', () => ({ pollStats: jest.fn(async () => ({ localAudioLevel: 0, remotes: new Map() })) }));
jest.mock('./recorder', () => ({ CallRecorder: jest.fn(() => ({ start: jest.fn(), stop: jest.fn() })) }));

function fakeTrack(kind: 'audio' | 'video'): MediaStreamTrack {
  return { kind, enabled: true, id: `${kind}-${Math.random()}`, stop: jest.fn() } as unknown as MediaStreamTrack;
}

class FakeStream {
  constructor(private readonly tracks: MediaStreamTrack[] = []) {}
  addTrack(track: MediaStreamTrack) {
    this.tracks.push(track);
  }
  getTracks() {
    return [...this.tracks];
  }
  getAudioTracks() {
    return this.tracks.filter((track) => track.kind === 'audio');
  }
  getVideoTracks() {
    return this.tracks.filter((track) => track.kind === 'video');
  }
}

function ticketFor(callId: number): MeetingTicket {
  return {
    token: `token-${callId}`,
    room_id: `room-${callId}`,
    call_id: callId,
    message_id: 100 + callId,
    ice_servers: [],
    ice_transport_policy: 'all',
    expires_in: 60,
    reconnect_seconds: 30,
  } as MeetingTicket;
}

async function startedSession() {
  const ends: SessionEnd[] = [];
  const snapshots: SessionSnapshot[] = [];
  const session = new CallSession({
    chatId: 7,
    myId: 1,
    myRole: 1,
    outgoing: false,
    onChange: (snapshot) => snapshots.push(snapshot),
    onEnd: (reason) => ends.push(reason),
    onMediaError: () => undefined,
  });
  await session.start();
  return { session, ends, snapshots };
}

/** Lets the retry's timer fire and the promises it starts settle. */
async function afterRetry() {
  await jest.advanceTimersByTimeAsync(5_000);
}

beforeAll(() => {
  (globalThis as { MediaStream?: unknown }).MediaStream = FakeStream;
});

beforeEach(() => {
  connections.length = 0;
  jest.useFakeTimers();
});

afterEach(() => {
  jest.useRealTimers();
});

test('coming back after a drop, it rejoins the same call with a fresh ticket', async () => {
  jest.mocked(callsApi.ticket).mockResolvedValueOnce(ticketFor(3)).mockResolvedValueOnce(ticketFor(3));
  const { session, ends, snapshots } = await startedSession();
  expect(connections).toHaveLength(1);

  connections[0]!.handlers.onDropped();
  expect(snapshots.at(-1)?.phase).toBe('reconnecting');
  await afterRetry();

  expect(callsApi.ticket).toHaveBeenCalledTimes(2);
  expect(connections).toHaveLength(2);
  expect(connections[1]!.ticket.call_id).toBe(3);
  expect(ends).toEqual([]);
  session.dispose();
});

test('coming back after a drop, it does not join a new call begun after its own ended', async () => {
  // Call 3 ended while this tab was away, and call 4 rings in the same chat: the chat's ticket now names call 4.
  jest.mocked(callsApi.ticket).mockResolvedValueOnce(ticketFor(3)).mockResolvedValueOnce(ticketFor(4));
  const { ends, snapshots } = await startedSession();
  connections[0]!.handlers.onRecord(103);
  expect(snapshots.at(-1)?.recorded).toBe(true);
  expect(CallRecorder).toHaveBeenCalledTimes(1);

  connections[0]!.handlers.onDropped();
  await afterRetry();

  expect(callsApi.ticket).toHaveBeenCalledTimes(2);
  expect(connections).toHaveLength(1); // no connection to call 4's room
  expect(ends).toEqual(['ended']);
  const recorder = jest.mocked(CallRecorder).mock.results[0]!.value as { stop: jest.Mock };
  expect(recorder.stop).toHaveBeenCalled();
});
