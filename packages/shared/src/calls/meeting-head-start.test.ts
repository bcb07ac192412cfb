import { beginMeetingHeadStart, discardMeetingHeadStart, HEAD_START_UNCLAIMED_MS, meetingAddress, takeMeetingHeadStart } from './meeting-head-start';
import type { MeetingHandlers } from './meeting-connection';
import { tokenStorage } from '../storage/tokens';
import { FakeMediaStream as FakeStream, FakeMediaTrack as FakeTrack } from '../testing/media';
import { FakeMeetingSocket as FakeSocket } from '../testing/meeting-socket';
import { handOverMeetingTicket } from './meeting-ticket-handoff';

// Stand-ins for the browser parts jsdom lacks: devices, the peer connection and the socket. The server's side is
// played by the test: the ticket, the offer and the frames that follow.

class FakePeerConnection {
  connectionState = 'new';
  onicecandidate = null;
  oniceconnectionstatechange = null;
  ontrack = null;
  close() {}
  addEventListener() {}
  getTransceivers() {
    return [];
  }
}

/** A JWT-shaped access token for user 7 (only its payload is read on this side). */
function accessToken(expiresInSeconds: number): string {
  const payload = btoa(JSON.stringify({ sub: '7', exp: Math.floor(Date.now() / 1000) + expiresInSeconds }));
  return `header.${payload}.signature`;
}

const ticket = { token: 'meet-token', room_id: 'room', call_id: 3, message_id: null, ice_servers: [], ice_transport_policy: 'all', expires_in: 60, reconnect_seconds: 30 };
let tracks: FakeTrack[] = [];
let cameraWorks = true;
/** What the browser says of the microphone permission. */
let microphone: PermissionState = 'granted';
let microphoneWorks = true;
const requests: string[] = [];

beforeAll(() => {
  Object.assign(globalThis, { MediaStream: FakeStream, RTCPeerConnection: FakePeerConnection, WebSocket: Object.assign(FakeSocket, { OPEN: 1 }) });
  Object.defineProperty(navigator, 'permissions', {
    configurable: true,
    value: { query: async () => ({ state: microphone }) },
  });
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: {
      getUserMedia: async (constraints: MediaStreamConstraints) => {
        if (constraints.video && !cameraWorks) throw new DOMException('no camera', 'NotFoundError');
        if (!constraints.video && !microphoneWorks) throw new DOMException('refused', 'NotAllowedError');
        const track = new FakeTrack(constraints.video ? 'video' : 'audio');
        tracks.push(track);
        return new FakeStream([track]);
      },
    },
  });
  globalThis.fetch = (async (url: string) => {
    requests.push(url);
    return { ok: true, status: 200, json: async () => ticket } as Response;
  }) as typeof fetch;
});

beforeEach(() => {
  tracks = [];
  cameraWorks = true;
  microphone = 'granted';
  microphoneWorks = true;
  requests.length = 0;
  FakeSocket.all = [];
  tokenStorage.save({ access_token: accessToken(3600), refresh_token: 'refresh' } as never);
  window.history.replaceState(null, '', '/meet/room?chat=5');
});

afterEach(() => discardMeetingHeadStart());

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

test('only a meeting page with a chat id starts anything', () => {
  expect(meetingAddress({ pathname: '/meet/room', search: '?chat=5' })).toEqual({ roomId: 'room', chatId: 5 });
  expect(meetingAddress({ pathname: '/meet/room', search: '?chat=x' })).toBeNull();
  expect(meetingAddress({ pathname: '/5', search: '?chat=5' })).toBeNull();

  window.history.replaceState(null, '', '/5');
  beginMeetingHeadStart();
  expect(takeMeetingHeadStart(5)).toBeNull();
  expect(tracks).toHaveLength(0);
});

test('without a usable access token it leaves everything to the engine (which refreshes first)', () => {
  tokenStorage.save({ access_token: accessToken(5), refresh_token: 'refresh' } as never);
  beginMeetingHeadStart();
  expect(takeMeetingHeadStart(5)).toBeNull();
  expect(requests).toHaveLength(0);
});

test('the devices, the ticket and the connection start at once; the engine takes them over with what came meanwhile', async () => {
  beginMeetingHeadStart();
  expect(requests).toEqual(['/api/meet/get-token?chat_id=5']);
  await settle();
  const [socket] = FakeSocket.all;
  expect(socket?.url).toContain('/api/meet/room/5/websocket?token=meet-token');
  socket!.open();
  // The server speaks before the engine has loaded: nothing is lost.
  socket!.frame('participants', { 7: 'u7', 8: 'u8' });
  socket!.frame('video', { 8: true });

  expect(takeMeetingHeadStart(6)).toBeNull(); // another chat's call
  const headStart = takeMeetingHeadStart(5)!;
  expect(takeMeetingHeadStart(5)).toBeNull(); // taken once
  const connection = (await headStart.connection)!;
  expect(connection.outgoing.video).toBe(tracks.find((track) => track.kind === 'video'));
  expect(socket!.sent.map((frame) => frame.event)).toEqual(['stream', 'video']);

  const seen: string[] = [];
  const handlers = {
    onParticipants: (participants: Map<number, string>) => seen.push(`participants ${[...participants.keys()]}`),
    onVideo: (states: Map<number, boolean>) => seen.push(`video ${[...states]}`),
    onEnd: (reason: string) => seen.push(`end ${reason}`),
  } as unknown as MeetingHandlers;
  await settle();
  connection.attach(handlers);
  expect(seen).toEqual(['participants 8', 'video 8,true']); // myself (7) left out, as always
  socket!.frame('ended', {});
  await settle();
  expect(seen.at(-1)).toBe('end ended');
});

test('a ticket handed over by the tab that accepted is used without asking the server', async () => {
  handOverMeetingTicket(5, 7, { ...ticket, token: 'handed-token' } as never, Date.now());
  beginMeetingHeadStart();
  await settle();
  expect(requests).toEqual([]);
  expect(FakeSocket.all[0]?.url).toContain('token=handed-token');
});

test("an old meeting link (another room than the chat's running call) never connects", async () => {
  window.history.replaceState(null, '', '/meet/an-old-room?chat=5');
  beginMeetingHeadStart();
  const headStart = takeMeetingHeadStart(5)!;
  expect(await headStart.connection).toBeNull();
  expect(FakeSocket.all).toHaveLength(0);
});

test('a page that finds no call to join leaves with the early connection', async () => {
  beginMeetingHeadStart();
  await settle();
  FakeSocket.all[0]!.open();
  discardMeetingHeadStart();
  await settle();
  expect(FakeSocket.all[0]!.closedWith).toBe(1000);
  expect(tracks.every((track) => track.stopped)).toBe(true);
});

/** getUserMedia answers only when `devicesUp` is called. */
function holdDevices(): () => void {
  let devicesUp!: () => void;
  const devices = new Promise<void>((resolve) => (devicesUp = resolve));
  const getUserMedia = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
  jest.spyOn(navigator.mediaDevices, 'getUserMedia').mockImplementation(async (constraints) => {
    await devices;
    return getUserMedia(constraints);
  });
  return devicesUp;
}

test('the connection does not wait for the devices: they join it when they are up', async () => {
  const devicesUp = holdDevices();
  try {
    beginMeetingHeadStart();
    await settle();
    const socket = FakeSocket.all[0];
    expect(socket?.url).toContain('token=meet-token'); // connecting, with no device yet
    socket!.open();
    const connection = (await takeMeetingHeadStart(5)!.connection)!;
    expect(connection.outgoing.audio).toBeNull();
    devicesUp();
    await settle();
    await settle();
    expect(connection.outgoing.audio).toBe(tracks.find((track) => track.kind === 'audio'));
    expect(connection.outgoing.video).toBe(tracks.find((track) => track.kind === 'video'));
    expect(connection.outgoing.stream.getAudioTracks()).toEqual([connection.outgoing.audio]);
  } finally {
    jest.restoreAllMocks();
  }
});

test('joining is answering: until the microphone is allowed, the connection waits for the devices', async () => {
  microphone = 'prompt';
  const devicesUp = holdDevices();
  try {
    beginMeetingHeadStart();
    await settle();
    expect(FakeSocket.all).toHaveLength(0); // at the browser's prompt: not in the room yet
    devicesUp();
    const connection = await takeMeetingHeadStart(5)!.connection;
    expect(connection).not.toBeNull();
    expect(FakeSocket.all).toHaveLength(1);
  } finally {
    jest.restoreAllMocks();
  }
});

test('a refused microphone never joins the room', async () => {
  microphone = 'prompt';
  microphoneWorks = false;
  beginMeetingHeadStart();
  const headStart = takeMeetingHeadStart(5)!;
  expect(await headStart.connection).toBeNull();
  await expect(headStart.media).rejects.toThrow();
  expect(FakeSocket.all).toHaveLength(0);
});

test('my picture counts as on only once the camera is up', async () => {
  const devicesUp = holdDevices();
  try {
    beginMeetingHeadStart();
    const connection = (await takeMeetingHeadStart(5)!.connection)!;
    FakeSocket.all[0]!.open();
    devicesUp();
    await settle();
    await settle();
    expect(connection.outgoing.video).not.toBeNull();
    expect(FakeSocket.all[0]!.sent.filter((frame) => frame.event === 'video').map((frame) => frame.data)).toEqual(['{"on":false}', '{"on":true}']);
  } finally {
    jest.restoreAllMocks();
  }
});

test('without a camera the connection still starts, and tells the others my picture is off', async () => {
  cameraWorks = false;
  beginMeetingHeadStart();
  const headStart = takeMeetingHeadStart(5)!;
  const connection = (await headStart.connection)!;
  expect((await headStart.media).cameraError?.reason).toBe('NotFoundError');
  FakeSocket.all[0]!.open();
  await settle();
  expect(connection.outgoing.audio).toBe(tracks.find((track) => track.kind === 'audio'));
  expect(connection.outgoing.video).toBeNull();
  expect(FakeSocket.all[0]!.sent.filter((frame) => frame.event === 'video').map((frame) => frame.data)).toEqual(['{"on":false}']);
});

test('once the engine has taken the connection, the devices arriving late do not override what it sends', async () => {
  const devicesUp = holdDevices();
  try {
    beginMeetingHeadStart();
    const connection = (await takeMeetingHeadStart(5)!.connection)!;
    connection.attach({} as MeetingHandlers);
    const blank = new FakeTrack('video') as unknown as MediaStreamTrack;
    await connection.sendMedia(null, blank, false);
    devicesUp();
    await settle();
    await settle();
    expect(connection.outgoing.video).toBe(blank);
  } finally {
    jest.restoreAllMocks();
  }
});

test('a head start nobody takes lets the devices go and leaves the socket holding the place, as a drop does', async () => {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate'] });
  try {
    beginMeetingHeadStart();
    await jest.advanceTimersByTimeAsync(0);
    FakeSocket.all[0]!.open();
    await jest.advanceTimersByTimeAsync(HEAD_START_UNCLAIMED_MS);
    expect(takeMeetingHeadStart(5)).toBeNull();
    expect(tracks.map((track) => track.stopped)).toEqual([true, true]);
    expect(FakeSocket.all[0]!.closedWith).toBe(4000);
  } finally {
    jest.useRealTimers();
  }
});
