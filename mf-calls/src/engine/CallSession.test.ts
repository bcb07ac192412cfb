import { acquireCamera, acquireMicrophone, callsApi, hangUpCall, MediaAccessError, type MeetingHandlers, type MeetingTicket } from '@messenger/shared';
import { CallSession, type SessionEnd, type SessionSnapshot } from './CallSession';
import { CallRecorder } from './recorder';

// The engine's own decisions, with the browser's media and the SFU's connection replaced by stand-ins: jsdom has
// neither WebRTC nor cameras (the browser tests in e2e/tests/calls.spec.ts drive the real ones).
const connections: FakeConnection[] = [];

class FakeConnection {
  readonly pc = Object.assign(new EventTarget(), { connectionState: 'new' as RTCPeerConnectionState });
  readonly close = jest.fn();
  readonly replaceVideo = jest.fn(async (_video: MediaStreamTrack | null, _on: boolean) => undefined);
  readonly sendMedia = jest.fn(async (_audio: MediaStreamTrack | null, _video: MediaStreamTrack | null, _on: boolean) => undefined);
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
  acquireCamera: jest.fn(),
  acquireMicrophone: jest.fn(),
  takeMeetingHeadStart: jest.fn(() => null),
  hangUpCall: jest.fn(async () => undefined),
  markCallStage: jest.fn(),
  MeetingConnection: jest.fn((...args: ConstructorParameters<typeof FakeConnection>) => new FakeConnection(...args)),
}));
jest.mock('./blank-video', () => ({ blankVideoTrack: () => fakeTrack('video') }));
jest.mock('./stats', () => ({ pollStats: jest.fn(async () => ({ localAudioLevel: 0, remotes: new Map() })) }));
jest.mock('./recorder', () => ({ CallRecorder: jest.fn(() => ({ start: jest.fn(), stop: jest.fn() })) }));

function fakeTrack(kind: 'audio' | 'video'): MediaStreamTrack {
  const track = Object.assign(new EventTarget(), { kind, enabled: true, id: `${kind}-${Math.random()}`, readyState: 'live' });
  return Object.assign(track, { stop: jest.fn(() => (track.readyState = 'ended')) }) as unknown as MediaStreamTrack;
}

/** The device went away (unplugged): the browser ends its track and says so. */
function unplug(track: MediaStreamTrack) {
  (track as { readyState: string }).readyState = 'ended';
  track.dispatchEvent(new Event('ended'));
}

class FakeStream {
  constructor(private readonly tracks: MediaStreamTrack[] = []) {}
  addTrack(track: MediaStreamTrack) {
    this.tracks.push(track);
  }
  removeTrack(track: MediaStreamTrack) {
    this.tracks.splice(this.tracks.indexOf(track), 1);
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

async function startedSession({ outgoing = false } = {}) {
  const ends: SessionEnd[] = [];
  const snapshots: SessionSnapshot[] = [];
  const mediaErrors: Array<MediaAccessError | Error> = [];
  const session = new CallSession({
    chatId: 7,
    myId: 1,
    myRole: 1,
    outgoing,
    onChange: (snapshot) => snapshots.push(snapshot),
    onEnd: (reason) => ends.push(reason),
    onMediaError: (_kind, error) => mediaErrors.push(error),
  });
  await session.start();
  return { session, ends, snapshots, mediaErrors };
}

/** The peer connection's state, as the browser reports it. */
function peerState(connection: FakeConnection, state: RTCPeerConnectionState) {
  connection.pc.connectionState = state;
  connection.pc.dispatchEvent(new Event('connectionstatechange'));
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

test('a second drop long after a recovered one gets a whole reconnect window of its own', async () => {
  jest.mocked(callsApi.ticket).mockResolvedValue(ticketFor(3));
  const { session, ends, snapshots } = await startedSession();
  peerState(connections[0]!, 'connected');

  connections[0]!.handlers.onDropped();
  await afterRetry();
  expect(connections).toHaveLength(2);
  // A new socket is not a recovered call: "Reconnecting…" stays until its media path is up.
  expect(snapshots.at(-1)?.phase).toBe('reconnecting');
  peerState(connections[1]!, 'connected');
  expect(snapshots.at(-1)?.phase).not.toBe('reconnecting');

  // Later than the 30 s window counted from the first drop.
  await jest.advanceTimersByTimeAsync(40_000);
  connections[1]!.handlers.onDropped();
  await afterRetry();
  expect(connections).toHaveLength(3);
  peerState(connections[2]!, 'connected');
  expect(ends).toEqual([]);
  expect(snapshots.at(-1)?.phase).not.toBe('reconnecting');
  session.dispose();
});

test('a new socket whose media path never comes up ends the call when the reconnect window closes', async () => {
  jest.mocked(callsApi.ticket).mockResolvedValue(ticketFor(3));
  const { ends, snapshots } = await startedSession();
  peerState(connections[0]!, 'connected');
  connections[0]!.handlers.onDropped();
  await afterRetry();
  expect(connections).toHaveLength(2);
  // The socket is open, the peer connection never leaves 'new' (no offer came): no further retry would look.
  await jest.advanceTimersByTimeAsync(20_000);
  expect(ends).toEqual([]);
  expect(snapshots.at(-1)?.phase).toBe('reconnecting');
  await jest.advanceTimersByTimeAsync(10_000);
  expect(ends).toEqual(['failed']);
});

test('two clicks on the camera while it starts leave one camera running, and leaving stops it', async () => {
  jest.mocked(callsApi.ticket).mockResolvedValue(ticketFor(3));
  // A slow camera: every request answers when the test says so.
  const cameras: MediaStreamTrack[] = [];
  const starting: Array<() => void> = [];
  jest.mocked(acquireCamera).mockImplementation(() => {
    const track = fakeTrack('video');
    cameras.push(track);
    return new Promise((resolve) => starting.push(() => resolve(new FakeStream([track]) as unknown as MediaStream)));
  });
  const { session, snapshots } = await startedSession();
  expect(snapshots.at(-1)?.cameraOn).toBe(false); // the call started with the microphone only

  const clicks = [session.toggleCamera(), session.toggleCamera()];
  for (const ready of starting) ready();
  await Promise.all(clicks);

  const live = cameras.filter((track) => track.readyState === 'live');
  expect(live).toHaveLength(1);
  expect(snapshots.at(-1)?.cameraOn).toBe(true);
  expect(connections[0]!.replaceVideo).toHaveBeenLastCalledWith(live[0], true);
  session.dispose();
  expect(cameras.every((track) => track.readyState === 'ended')).toBe(true);
});

test('an outgoing call gives up after 60 s when nobody answers, and only an outgoing one', async () => {
  jest.mocked(callsApi.ticket).mockResolvedValue(ticketFor(3));
  const outgoing = await startedSession({ outgoing: true });
  const incoming = await startedSession();
  await jest.advanceTimersByTimeAsync(60_000);
  expect(outgoing.ends).toEqual(['unanswered']);
  expect(incoming.ends).toEqual([]);
  incoming.session.dispose();
});

test('a callee who answered and dropped just before 60 s does not make the caller give up', async () => {
  jest.mocked(callsApi.ticket).mockResolvedValue(ticketFor(3));
  const { session, ends, snapshots } = await startedSession({ outgoing: true });
  await jest.advanceTimersByTimeAsync(10_000);
  connections[0]!.handlers.onParticipants(new Map([[2, 'u2']]));

  await jest.advanceTimersByTimeAsync(49_000);
  connections[0]!.handlers.onParticipants(new Map());
  connections[0]!.handlers.onReconnecting(new Map([[2, 30]]));
  await jest.advanceTimersByTimeAsync(20_000);

  expect(ends).toEqual([]);
  expect(hangUpCall).not.toHaveBeenCalled();
  expect(snapshots.at(-1)?.remotes).toEqual([expect.objectContaining({ userId: 2, reconnecting: true })]);
  session.dispose();
});

test('an unplugged camera turns the camera off and says so', async () => {
  jest.mocked(callsApi.ticket).mockResolvedValue(ticketFor(3));
  const camera = fakeTrack('video');
  jest.mocked(acquireCamera).mockResolvedValue(new FakeStream([camera]) as unknown as MediaStream);
  const { session, snapshots, mediaErrors } = await startedSession();
  await session.toggleCamera();
  expect(snapshots.at(-1)?.cameraOn).toBe(true);

  unplug(camera);
  await jest.advanceTimersByTimeAsync(0);

  expect(snapshots.at(-1)?.cameraOn).toBe(false);
  expect(snapshots.at(-1)?.localStream).toBeNull();
  // The blank picture goes out, and the others are told the picture is off.
  expect(connections[0]!.replaceVideo).toHaveBeenLastCalledWith(expect.objectContaining({ kind: 'video' }), false);
  expect(connections[0]!.replaceVideo.mock.lastCall![0]).not.toBe(camera);
  expect(mediaErrors).toEqual([expect.any(MediaAccessError)]);
  session.dispose();
});

test('an unplugged microphone is replaced by another on the same m-line, muted if it was', async () => {
  jest.mocked(callsApi.ticket).mockResolvedValue(ticketFor(3));
  const replacement = fakeTrack('audio');
  jest.mocked(acquireMicrophone).mockResolvedValue(new FakeStream([replacement]) as unknown as MediaStream);
  const { session, snapshots, mediaErrors } = await startedSession();
  session.toggleMute();
  const microphone = connections[0]!.outgoing as { audio: MediaStreamTrack };

  unplug(microphone.audio);
  await jest.advanceTimersByTimeAsync(0);

  expect(acquireMicrophone).toHaveBeenCalledTimes(1);
  expect(connections[0]!.sendMedia).toHaveBeenCalledWith(replacement, expect.anything(), false);
  expect(replacement.enabled).toBe(false);
  expect(snapshots.at(-1)?.muted).toBe(true);
  expect(mediaErrors).toEqual([]);
  session.dispose();
  expect(replacement.stop).toHaveBeenCalled();
});

test('an unplugged microphone with none to replace it says so and shows as muted; unmuting asks again', async () => {
  jest.mocked(callsApi.ticket).mockResolvedValue(ticketFor(3));
  const refusal = new MediaAccessError('Requested device not found', 'NotFoundError');
  jest.mocked(acquireMicrophone).mockRejectedValueOnce(refusal);
  const { session, snapshots, mediaErrors } = await startedSession();
  expect(snapshots.at(-1)?.muted).toBe(false);

  unplug((connections[0]!.outgoing as { audio: MediaStreamTrack }).audio);
  await jest.advanceTimersByTimeAsync(0);
  expect(mediaErrors).toEqual([refusal]);
  expect(snapshots.at(-1)?.muted).toBe(true);

  const plugged = fakeTrack('audio');
  jest.mocked(acquireMicrophone).mockResolvedValueOnce(new FakeStream([plugged]) as unknown as MediaStream);
  session.toggleMute();
  await jest.advanceTimersByTimeAsync(0);
  expect(connections[0]!.sendMedia).toHaveBeenCalledWith(plugged, expect.anything(), false);
  expect(snapshots.at(-1)?.muted).toBe(false);
  session.dispose();
});

test('a media path disconnected for 5 s is replaced as if it had failed; one back sooner is kept', async () => {
  jest.mocked(callsApi.ticket).mockResolvedValue(ticketFor(3));
  const { session, ends, snapshots } = await startedSession();
  peerState(connections[0]!, 'connected');

  peerState(connections[0]!, 'disconnected');
  await jest.advanceTimersByTimeAsync(4_000);
  peerState(connections[0]!, 'connected');
  await jest.advanceTimersByTimeAsync(10_000);
  expect(connections).toHaveLength(1);
  expect(connections[0]!.close).not.toHaveBeenCalled();

  peerState(connections[0]!, 'disconnected');
  await jest.advanceTimersByTimeAsync(4_999);
  expect(connections[0]!.close).not.toHaveBeenCalled();
  await jest.advanceTimersByTimeAsync(1);
  expect(connections[0]!.close).toHaveBeenCalledWith(false); // the server holds my place
  expect(snapshots.at(-1)?.phase).toBe('reconnecting');
  await afterRetry();
  expect(connections).toHaveLength(2);
  expect(ends).toEqual([]);
  session.dispose();
});

test('leaving while the media path is disconnected leaves no timer behind', async () => {
  jest.mocked(callsApi.ticket).mockResolvedValue(ticketFor(3));
  const { session } = await startedSession();
  peerState(connections[0]!, 'disconnected');
  session.dispose();
  expect(jest.getTimerCount()).toBe(0);
});
