// SFU benchmark: figures, not pass/fail. A real server (in this process, embedded PGlite) and its in-process SFU;
// the participants are werift peer connections in a child process, so this process's CPU time is the server's alone.
// For rooms of 2, 4 and 8 people, each publishing one audio track (50 packets/s of 100 bytes) and one video track
// (30 frames/s of 3 packets of 1100 bytes, VP8 as the SFU offers it), once everyone receives everyone:
//   server CPU (% of one core) in total and per participant, and packets/s the SFU forwarded (counted where they
//   arrive), over 10 s.
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { MediaStreamTrack, RTCPeerConnection, RtpHeader, RtpPacket } from 'werift';
import WebSocket from 'ws';
import { startServer, type TestServer } from '../test/helpers/server.js';
import { request, signUp, type Person } from '../test/helpers/client.js';
import { closePeer } from '../src/media/werift-engine.js';

const ROOM_SIZES = [2, 4, 8];
const MEASURE_MS = 10_000;
const WARM_UP_MS = 2_000;
const AUDIO = { intervalMs: 20, bytes: 100 };
const VIDEO = { intervalMs: 1000 / 30, packetsPerFrame: 3, bytes: 1100 };

/** Messages between the bench (server) process and the participants' process. */
type ToClients = { type: 'room'; url: string; wsUrl: string; size: number } | { type: 'start' } | { type: 'stop' } | { type: 'close' };
type FromClients =
  | { type: 'ready'; seconds: number }
  | { type: 'counts'; received: number; receivedBytes: number; sent: number; cpuPercent: number; seconds: number }
  | { type: 'closed' }
  | { type: 'failed'; message: string };

// ---------------------------------------------------------------------------------------------------------------
// The participants (child process).

/** One person in the call: the meeting socket and a werift peer connection publishing generated audio and video. */
class Participant {
  readonly pc = new RTCPeerConnection({ iceAdditionalHostAddresses: ['127.0.0.1'], iceUseIpv6: false, bundlePolicy: 'max-bundle' });
  readonly microphone = new MediaStreamTrack({ kind: 'audio' });
  readonly camera = new MediaStreamTrack({ kind: 'video' });
  /** Packets received per `<stream id>:<kind>`, and in total. */
  readonly received = new Map<string, number>();
  receivedPackets = 0;
  receivedBytes = 0;
  sentPackets = 0;
  readonly errors: Error[] = [];
  private socket!: WebSocket;
  private published = false;
  private timers: Array<ReturnType<typeof setInterval>> = [];
  private chain: Promise<unknown> = Promise.resolve();

  constructor(readonly userId: number) {
    this.pc.onIceCandidate.subscribe((candidate) => {
      if (candidate) this.send('candidate', candidate.toJSON());
    });
    this.pc.onTransceiverAdded.subscribe((transceiver) => {
      transceiver.onTrack.subscribe((track) => {
        track.onReceiveRtp.subscribe((rtp) => {
          const key = `${transceiver.receiver.remoteStreamId ?? track.streamId ?? '?'}:${track.kind}`;
          this.received.set(key, (this.received.get(key) ?? 0) + 1);
          this.receivedPackets += 1;
          this.receivedBytes += rtp.payload.length;
        });
      });
    });
  }

  async join(wsUrl: string, chatId: number, token: string): Promise<void> {
    this.socket = new WebSocket(`${wsUrl}/api/meet/room/${chatId}/websocket?token=${encodeURIComponent(token)}`);
    this.socket.on('message', (raw) => {
      const frame = JSON.parse(String(raw)) as { event: string; data: string };
      const data = frame.data ? JSON.parse(frame.data) : null;
      // In order, like the browser: an offer is answered before the candidates that follow it are added.
      this.chain = this.chain.then(() => this.handle(frame.event, data)).catch((error) => this.errors.push(error as Error));
    });
    await new Promise((resolve, reject) => {
      this.socket.once('open', resolve);
      this.socket.once('error', reject);
    });
  }

  /** True once this person receives both tracks of every other person. */
  receivesAll(others: Participant[]): boolean {
    return others.every((other) => (['audio', 'video'] as const).every((kind) => (this.received.get(`u${other.userId}:${kind}`) ?? 0) > 0));
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.socket.close();
    await closePeer(this.pc);
  }

  private async handle(event: string, data: any): Promise<void> {
    if (event === 'offer') {
      await this.pc.setRemoteDescription(data);
      if (!this.published) {
        // The SFU's first two m-lines receive this person's microphone and camera.
        const [audio, video] = this.pc.getTransceivers();
        audio!.setDirection('sendonly');
        video!.setDirection('sendonly');
        await audio!.sender.replaceTrack(this.microphone);
        await video!.sender.replaceTrack(this.camera);
        this.published = true;
        this.startSending(payloadType(data.sdp, 'opus') ?? 111, payloadType(data.sdp, 'VP8') ?? 96);
      }
      await this.pc.setLocalDescription(await this.pc.createAnswer());
      this.send('answer', this.pc.localDescription);
    } else if (event === 'candidate') {
      await this.pc.addIceCandidate(data);
    }
  }

  /** Generated media: what the SFU forwards is RTP, whatever its payload says. */
  private startSending(audioType: number, videoType: number): void {
    const audioPayload = randomBytes(AUDIO.bytes);
    const videoPayload = randomBytes(VIDEO.bytes);
    let audioSeq = 0;
    let audioTime = 0;
    this.timers.push(
      setInterval(() => {
        const header = new RtpHeader({ payloadType: audioType, sequenceNumber: audioSeq++ & 0xffff, timestamp: (audioTime += 960) >>> 0, ssrc: 0x1000 + this.userId });
        this.microphone.writeRtp(new RtpPacket(header, audioPayload));
        this.sentPackets += 1;
      }, AUDIO.intervalMs),
    );
    let videoSeq = 0;
    let videoTime = 0;
    this.timers.push(
      setInterval(() => {
        videoTime = (videoTime + 3000) >>> 0;
        for (let i = 0; i < VIDEO.packetsPerFrame; i += 1) {
          const last = i === VIDEO.packetsPerFrame - 1;
          const header = new RtpHeader({ payloadType: videoType, sequenceNumber: videoSeq++ & 0xffff, timestamp: videoTime, ssrc: 0x2000 + this.userId, marker: last });
          // VP8 payload descriptor: S=1 on the first packet of a frame.
          videoPayload[0] = i === 0 ? 0x10 : 0x00;
          this.camera.writeRtp(new RtpPacket(header, videoPayload));
          this.sentPackets += 1;
        }
      }, VIDEO.intervalMs),
    );
  }

  private send(event: string, data: unknown): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify({ event, data: JSON.stringify(data) }));
  }
}

/** The payload type an SDP gives a codec (first match). */
function payloadType(sdp: string, codec: string): number | undefined {
  const match = new RegExp(`a=rtpmap:(\\d+) ${codec}/`, 'i').exec(sdp);
  return match ? Number(match[1]) : undefined;
}

async function until(predicate: () => boolean, timeoutMs: number, what: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function runParticipants(): Promise<void> {
  const reply = (message: FromClients) => process.send!(message);
  let participants: Participant[] = [];
  let window: { cpu: NodeJS.CpuUsage; at: number; received: number; bytes: number; sent: number } | undefined;
  const total = () => ({
    received: participants.reduce((sum, p) => sum + p.receivedPackets, 0),
    bytes: participants.reduce((sum, p) => sum + p.receivedBytes, 0),
    sent: participants.reduce((sum, p) => sum + p.sentPackets, 0),
  });
  process.on('message', (message: ToClients) => {
    void (async () => {
      if (message.type === 'room') {
        const started = performance.now();
        const server = { url: message.url, wsUrl: message.wsUrl } as TestServer;
        const people: Person[] = [];
        for (let i = 0; i < message.size; i += 1) people.push(await signUp(server));
        const [owner, ...rest] = people;
        const created = await request(server, 'POST', '/chat/create', {
          token: owner!.token,
          body: { chat_type: 'group', name: 'Bench call', participants: rest.map((person) => person.id) },
        });
        if (created.status !== 201) throw new Error(`chat/create ${created.status} ${JSON.stringify(created.body)}`);
        const chatId = created.body.chat.id as number;
        const call = await request(server, 'POST', '/meet/call', { token: owner!.token, body: { chat_id: chatId } });
        if (call.status !== 200) throw new Error(`meet/call ${call.status} ${JSON.stringify(call.body)}`);
        // One at a time, as people answer: each join renegotiates with everyone already in the room.
        for (const person of people) {
          const token = await request(server, 'GET', `/meet/get-token?chat_id=${chatId}`, { token: person.token });
          const participant = new Participant(person.id);
          participants.push(participant);
          await participant.join(message.wsUrl, chatId, token.body.token);
          await until(() => participant.pc.connectionState === 'connected', 20_000, () => `user ${person.id} to connect`);
        }
        await until(
          () => participants.every((p) => p.receivesAll(participants.filter((other) => other !== p))),
          60_000,
          () => `everyone to receive everyone: ${participants.map((p) => `${p.userId} ${JSON.stringify(Object.fromEntries(p.received))} ${p.errors.map(String)}`).join('; ')}`,
        );
        reply({ type: 'ready', seconds: (performance.now() - started) / 1000 });
      } else if (message.type === 'start') {
        window = { cpu: process.cpuUsage(), at: performance.now(), ...total(), sent: total().sent };
      } else if (message.type === 'stop') {
        const cpu = process.cpuUsage(window!.cpu);
        const seconds = (performance.now() - window!.at) / 1000;
        const now = total();
        reply({
          type: 'counts',
          received: now.received - window!.received,
          receivedBytes: now.bytes - window!.bytes,
          sent: now.sent - window!.sent,
          cpuPercent: ((cpu.user + cpu.system) / 1e6 / seconds) * 100,
          seconds,
        });
      } else if (message.type === 'close') {
        await Promise.all(participants.map((participant) => participant.close()));
        participants = [];
        reply({ type: 'closed' });
      }
    })().catch((error: unknown) => reply({ type: 'failed', message: error instanceof Error ? error.message : String(error) }));
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The server (this process).

function nextMessage<T extends FromClients['type']>(child: ChildProcess, type: T, timeoutMs = 120_000): Promise<Extract<FromClients, { type: T }>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "${type}" from the participants within ${timeoutMs} ms`)), timeoutMs);
    const onMessage = (message: FromClients) => {
      if (message.type !== type && message.type !== 'failed') return;
      clearTimeout(timer);
      child.off('message', onMessage);
      if (message.type === 'failed') reject(new Error(`participants: ${message.message}`));
      else resolve(message as Extract<FromClients, { type: T }>);
    };
    child.on('message', onMessage);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function cpuOver(ms: number): Promise<number> {
  const before = process.cpuUsage();
  const started = performance.now();
  await sleep(ms);
  const used = process.cpuUsage(before);
  return ((used.user + used.system) / 1e6 / ((performance.now() - started) / 1000)) * 100;
}

async function benchRoom(size: number): Promise<void> {
  const server = await startServer();
  const child = fork(fileURLToPath(import.meta.url), ['--participants'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const idle = await cpuOver(3000);
    child.send({ type: 'room', url: server.url, wsUrl: server.wsUrl, size } satisfies ToClients);
    const ready = await nextMessage(child, 'ready');
    await sleep(WARM_UP_MS);
    const before = process.cpuUsage();
    const started = performance.now();
    child.send({ type: 'start' } satisfies ToClients);
    await sleep(MEASURE_MS);
    child.send({ type: 'stop' } satisfies ToClients);
    const used = process.cpuUsage(before);
    const seconds = (performance.now() - started) / 1000;
    const counts = await nextMessage(child, 'counts');
    const cpu = ((used.user + used.system) / 1e6 / seconds) * 100;
    const published = counts.sent / counts.seconds;
    const forwarded = counts.received / counts.seconds;
    console.log(`\n${size} participants (all connected and receiving everyone after ${ready.seconds.toFixed(1)} s)`);
    console.log(`  server CPU: ${cpu.toFixed(1)} % of one core (${(cpu / size).toFixed(1)} % per participant; idle server ${idle.toFixed(1)} %)`);
    console.log(
      `  forwarded: ${Math.round(forwarded)} packets/s, ${((counts.receivedBytes * 8) / counts.seconds / 1e6).toFixed(2)} Mbit/s of payload ` +
        `(published ${Math.round(published)} packets/s; ideal ${Math.round(published * (size - 1))} packets/s = ${((100 * forwarded) / (published * (size - 1))).toFixed(1)} % arrived)`,
    );
    console.log(`  participants' process (werift clients, for reference): ${counts.cpuPercent.toFixed(1)} % of one core`);
    child.send({ type: 'close' } satisfies ToClients);
    await nextMessage(child, 'closed', 30_000);
  } finally {
    child.kill();
    await server.close();
  }
}

if (process.argv.includes('--participants')) {
  await runParticipants();
} else {
  console.log(`SFU: in-process werift; each participant publishes audio ${1000 / AUDIO.intervalMs} packets/s × ${AUDIO.bytes} B and video 30 frames/s × ${VIDEO.packetsPerFrame} packets × ${VIDEO.bytes} B; measured over ${MEASURE_MS / 1000} s`);
  for (const size of ROOM_SIZES) await benchRoom(size);
  // werift's DTLS retransmission timers outlive closed connections for ~30 s: do not wait for them.
  process.exit(0);
}
