import { MediaStreamTrack, RTCPeerConnection, RtpHeader, RtpPacket } from 'werift';
import type { TestServer } from './server.js';
import { SocketProbe, WAIT_MS, waitFor } from './client.js';
import { closePeer, skipServerReflexiveQuery } from '../../src/media/werift-engine.js';

/**
 * A participant of a call as a browser would be: the meeting socket, and a real WebRTC peer connection (werift)
 * that answers the SFU's offers, publishes a microphone track of generated RTP packets, and counts what arrives
 * from the others, by stream id (`u<user id>`).
 */
export class MeetClient {
  readonly pc = new RTCPeerConnection({ iceAdditionalHostAddresses: ['127.0.0.1'], iceUseIpv6: false, bundlePolicy: 'max-bundle' });
  readonly microphone = new MediaStreamTrack({ kind: 'audio' });
  /** RTP packets received per stream id. */
  readonly received = new Map<string, number>();
  readonly socket: SocketProbe;
  /** Failures while handling the server's frames (a test asserts there are none). */
  readonly errors: Error[] = [];
  private published = false;
  private sending: ReturnType<typeof setInterval> | undefined;
  private chain: Promise<unknown> = Promise.resolve();

  private constructor(socket: SocketProbe) {
    this.socket = socket;
    this.pc.onIceCandidate.subscribe((candidate) => {
      if (candidate) this.send('candidate', candidate.toJSON());
    });
    this.pc.onTransceiverAdded.subscribe((transceiver) => {
      transceiver.onTrack.subscribe((track) => {
        track.onReceiveRtp.subscribe(() => {
          const stream = transceiver.receiver.remoteStreamId ?? track.streamId ?? '?';
          this.received.set(stream, (this.received.get(stream) ?? 0) + 1);
        });
      });
    });
    // The server's first frames (participants, the offer, candidates) can arrive in the same read as the upgrade's
    // answer, before this constructor runs: the probe has recorded them, so they are handled first, then the rest.
    for (const frame of socket.frames) this.enqueue(frame);
    socket.socket.on('message', (raw) => this.enqueue(JSON.parse(String(raw))));
  }

  static async join(server: TestServer, chatId: number, token: string): Promise<MeetClient> {
    const socket = await SocketProbe.open(`${server.wsUrl}/api/meet/room/${chatId}/websocket?token=${encodeURIComponent(token)}`);
    return new MeetClient(socket);
  }

  /** The `participants` frames received, newest last. */
  participantFrames(): Array<Record<string, string>> {
    return this.socket.frames.filter((frame) => frame.event === 'participants').map((frame) => JSON.parse(frame.data));
  }

  frames(event: string): any[] {
    return this.socket.frames.filter((frame) => frame.event === event).map((frame) => (frame.data ? JSON.parse(frame.data) : null));
  }

  /** Starts sending 20 ms audio packets (their content does not matter to an SFU). */
  startSending(): void {
    let sequenceNumber = 1;
    let timestamp = 0;
    const ssrc = 0x1234;
    this.sending = setInterval(() => {
      const header = new RtpHeader({ payloadType: 111, sequenceNumber: sequenceNumber++ & 0xffff, timestamp: (timestamp += 960) >>> 0, ssrc, marker: false });
      this.microphone.writeRtp(new RtpPacket(header, Buffer.from([0xf8, 0xff, 0xfe])));
    }, 20);
  }

  /** Resolves once the peer connection with the SFU is up; fails after `timeoutMs`. */
  async connected(timeoutMs = 2 * WAIT_MS): Promise<void> {
    await waitFor(() => this.pc.connectionState === 'connected', 'the peer connection with the SFU', timeoutMs);
  }

  /** Leaves the call on purpose, as the browser's hang-up does (close code 1000). */
  async close(): Promise<void> {
    clearInterval(this.sending);
    this.socket.socket.close(1000);
    await closePeer(this.pc);
  }

  /** The connection drops (no close frame: the server sees 1006), as on a network failure. */
  async drop(): Promise<void> {
    clearInterval(this.sending);
    this.socket.socket.terminate();
    await closePeer(this.pc);
  }

  /** In order, like the browser client: an offer is answered before the candidates that follow it are added. */
  private enqueue(frame: { event: string; data: string }): void {
    const data = frame.data ? JSON.parse(frame.data) : null;
    this.chain = this.chain.then(() => this.handle(frame.event, data)).catch((error) => {
      this.errors.push(error as Error);
    });
  }

  private async handle(event: string, data: any): Promise<void> {
    if (event === 'offer') {
      await this.pc.setRemoteDescription(data);
      skipServerReflexiveQuery(this.pc); // a browser here needs no STUN server (werift would ask Google's)
      if (!this.published) {
        // The SFU's first m-line receives this participant's microphone.
        const [audio] = this.pc.getTransceivers();
        audio!.setDirection('sendonly');
        await audio!.sender.replaceTrack(this.microphone);
        this.published = true;
      }
      await this.pc.setLocalDescription(await this.pc.createAnswer());
      this.send('answer', this.pc.localDescription);
    } else if (event === 'candidate') {
      await this.pc.addIceCandidate(data);
    }
  }

  private send(event: string, data: unknown): void {
    if (this.socket.socket.readyState === this.socket.socket.OPEN) this.socket.send({ event, data: JSON.stringify(data) });
  }
}
