import { MeetingConnection, type MeetingHandlers } from './meeting-connection';
import { FakeMediaStream } from '../testing/media';
import { FakeMeetingSocket as FakeSocket } from '../testing/meeting-socket';

// The meeting socket's frames against the wire contract (packages/protocol, meeting-socket.ts): what the connection
// sends is the contract's, and a server frame outside it is refused loudly here (tests and development builds).

class FakePeerConnection {
  static last: FakePeerConnection | null = null;
  connectionState = 'new';
  remoteDescription: RTCSessionDescriptionInit | null = null;
  localDescription: RTCSessionDescriptionInit | null = null;
  added: RTCIceCandidateInit[] = [];
  onicecandidate: ((event: { candidate: unknown }) => void) | null = null;
  oniceconnectionstatechange = null;
  ontrack = null;
  constructor() {
    FakePeerConnection.last = this;
  }
  async setRemoteDescription(description: RTCSessionDescriptionInit) {
    this.remoteDescription = description;
  }
  async createAnswer() {
    return { type: 'answer', sdp: 'v=0 answer' };
  }
  async setLocalDescription(description: RTCSessionDescriptionInit) {
    this.localDescription = description;
  }
  async addIceCandidate(candidate: RTCIceCandidateInit) {
    this.added.push(candidate);
  }
  getTransceivers() {
    return [];
  }
  close() {}
}

const ticket = { token: 'meet-token', room_id: 'room', call_id: 3, message_id: 57, ice_servers: [], ice_transport_policy: 'all', expires_in: 60, reconnect_seconds: 30 };
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

let records: number[];
let participants: Array<Map<number, string>>;
/** What the session was told about the connection's end: `dropped`, or the reason it ended. */
let outcomes: string[];
let warned: jest.SpyInstance;
let logged: jest.SpyInstance;

function connect(): { connection: MeetingConnection; socket: FakeSocket; pc: FakePeerConnection } {
  const handlers = {
    onParticipants: (seen: Map<number, string>) => participants.push(seen),
    onRecord: (messageId: number) => records.push(messageId),
    onDropped: () => outcomes.push('dropped'),
    onEnd: (reason: string) => outcomes.push(reason),
  } as unknown as MeetingHandlers;
  const stream = new FakeMediaStream() as unknown as MediaStream;
  const connection = new MeetingConnection(5, ticket as never, 7, { audio: null, video: null, stream, videoOn: false }, handlers);
  const socket = FakeSocket.all.at(-1)!;
  socket.open();
  return { connection, socket, pc: FakePeerConnection.last! };
}

beforeAll(() => {
  Object.assign(globalThis, { RTCPeerConnection: FakePeerConnection, WebSocket: Object.assign(FakeSocket, { OPEN: 1, CONNECTING: 0 }) });
});

beforeEach(() => {
  FakeSocket.all = [];
  records = [];
  participants = [];
  outcomes = [];
  warned = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => jest.restoreAllMocks());

test('what it sends is the contract’s: its stream and picture when the socket opens, the answer, its candidates', async () => {
  const { connection, socket, pc } = connect();
  socket.frame('offer', { type: 'offer', sdp: 'v=0 offer' });
  await settle();
  // A browser's candidate: toJSON's four fields, null where it has none.
  pc.onicecandidate?.({ candidate: { candidate: 'candidate:1 1 udp 1 10.0.0.1 5000 typ host', sdpMid: '0', sdpMLineIndex: 0, usernameFragment: null } });
  expect(socket.sent.map((frame) => [frame.event, JSON.parse(frame.data)])).toEqual([
    ['stream', { stream_id: expect.any(String), user_id: 7 }],
    ['video', { on: false }],
    ['answer', { type: 'answer', sdp: 'v=0 answer' }],
    ['candidate', { candidate: 'candidate:1 1 udp 1 10.0.0.1 5000 typ host', sdpMid: '0', sdpMLineIndex: 0, usernameFragment: null }],
  ]);
  expect(logged).not.toHaveBeenCalled();
  connection.close();
});

test('a server frame outside the contract is refused loudly, and not acted on', async () => {
  const { connection, socket } = connect();
  socket.frame('participants', { 7: 'u7', 8: 8 });
  socket.frame('record_audio', { message_id: '57' });
  socket.frame('hello', {});
  await settle();
  expect(participants).toEqual([]);
  expect(records).toEqual([]);
  expect(logged.mock.calls.map(([error]) => String(error))).toEqual([
    expect.stringMatching(/^ContractError: \/meet\/room sent a frame outside the contract: \/8 .*"participants"/),
    expect.stringMatching(/^ContractError: \/meet\/room sent a frame outside the contract: \/message_id .*"record_audio"/),
    expect.stringMatching(/^ContractError: \/meet\/room sent a frame the contract does not know — .*"hello"/),
  ]);
  expect(warned).toHaveBeenCalledTimes(3); // each one's handling failed, and the connection goes on
  socket.frame('participants', { 7: 'u7', 8: 'u8' });
  await settle();
  expect(participants).toEqual([new Map([[8, 'u8']])]);
  connection.close();
});

test('a recorded call whose message is gone (auto-delete) records nothing: there is nothing to store it under', async () => {
  const { connection, socket } = connect();
  socket.frame('record_audio', { message_id: null });
  socket.frame('record_audio', { message_id: 57 });
  await settle();
  expect(records).toEqual([57]);
  expect(logged).not.toHaveBeenCalled();
  connection.close();
});

test('the server closing with 1000 ends the call here, though its `ended` still waits behind an offer being answered', async () => {
  const { socket } = connect();
  socket.frame('offer', { type: 'offer', sdp: 'v=0 offer' });
  socket.frame('ended', { reason: 'ended' });
  socket.onclose?.({ code: 1000 });
  await settle();
  expect(outcomes).toEqual(['ended']); // not a drop, and told once
});

test('any other close from the server is a drop (the place is held), and 4009 a full room', async () => {
  for (const code of [1006, 1001, 1011]) {
    const { socket } = connect();
    socket.onclose?.({ code });
  }
  connect().socket.onclose?.({ code: 4009 });
  expect(outcomes).toEqual(['dropped', 'dropped', 'dropped', 'full']);
});

test('after a close, frames already received or still coming do not reach the session', async () => {
  const { connection, socket } = connect();
  socket.frame('offer', { type: 'offer', sdp: 'v=0 offer' });
  socket.frame('participants', { 7: 'u7', 8: 'u8' });
  const onmessage = socket.onmessage;
  connection.close(false);
  expect(socket.closedWith).toBe(4000);
  expect(socket.onmessage).toBeNull();
  onmessage?.({ data: JSON.stringify({ event: 'ended', data: JSON.stringify({ reason: 'ended' }) }) });
  await settle();
  expect(participants).toEqual([]);
  expect(outcomes).toEqual([]);
});
