import assert from 'node:assert/strict';
import dgram from 'node:dgram';
import dns from 'node:dns';
import { afterEach, describe, it } from 'node:test';
import { MediaStreamTrack, RTCPeerConnection, RtpHeader, RtpPacket } from 'werift';
import { closePeer, skipServerReflexiveQuery, WeriftEngine } from '../src/media/werift-engine.js';
import type { RoomMember } from '../src/media/engine.js';
import { WAIT_MS, waitFor } from './helpers/client.js';

/** The engine's participant, as far as these tests reach into it. */
type Participant = RoomMember & { keyFrame(): void; pc: RTCPeerConnection };

/**
 * A browser in a room, without the meeting socket: a werift peer connection that answers the SFU's offers in order,
 * publishes a microphone and a camera on the first two m-lines. The key frame requests (PLI) the SFU sends it are
 * noted where the SFU sends them.
 */
class Peer {
  readonly pc = new RTCPeerConnection({ iceAdditionalHostAddresses: ['127.0.0.1'], iceUseIpv6: false, bundlePolicy: 'max-bundle' });
  readonly offers: number[] = [];
  readonly keyFrameRequests: number[] = [];
  readonly microphone = new MediaStreamTrack({ kind: 'audio' });
  /** While set, the SFU's offers wait unanswered (`releaseOffers`), as with a browser that is slow to answer. */
  holdOffers = false;
  private readonly heldOffers: unknown[] = [];
  private sending: ReturnType<typeof setInterval> | undefined;
  member!: Participant;
  private chain: Promise<unknown> = Promise.resolve();
  private published = false;

  /** The peer's own candidates, when it holds them back (as a browser busy loading a page sends them late). */
  readonly heldCandidates: unknown[] = [];

  static async join(engine: WeriftEngine, roomId: string, userId: number, { answer = true, holdCandidates = false } = {}): Promise<Peer> {
    const peer = new Peer();
    const early: Array<[string, unknown]> = [];
    const deliver = (event: string, data: unknown) => {
      if (!answer) return;
      if (event === 'offer' && peer.holdOffers) peer.heldOffers.push(data);
      else peer.chain = peer.chain.then(() => peer.handle(event, data));
    };
    // What the SFU sends while `join` is still under way waits until the peer knows its member.
    const member = (await engine.join(roomId, userId, (event, data) => (peer.member ? deliver(event, data) : early.push([event, data])))) as Participant;
    peer.member = member;
    peer.holding = holdCandidates;
    const receiver = member.pc.getTransceivers()[1]!.receiver;
    const sendPli = receiver.sendRtcpPLI.bind(receiver);
    receiver.sendRtcpPLI = (ssrc: number) => {
      peer.keyFrameRequests.push(Date.now());
      return sendPli(ssrc);
    };
    peer.pc.onIceCandidate.subscribe((candidate) => {
      if (!candidate) return;
      if (holdCandidates) peer.heldCandidates.push(candidate.toJSON());
      else void member.handle('candidate', candidate.toJSON());
    });
    for (const [event, data] of early) deliver(event, data);
    return peer;
  }

  private holding = false;

  releaseOffers(): void {
    this.holdOffers = false;
    for (const offer of this.heldOffers.splice(0)) this.chain = this.chain.then(() => this.handle('offer', offer));
  }

  /** Sends 20 ms audio packets on the microphone (their content does not matter to an SFU). */
  startSending(): void {
    let sequenceNumber = 1;
    this.sending = setInterval(() => {
      const header = new RtpHeader({ payloadType: 96, sequenceNumber: sequenceNumber++ & 0xffff, timestamp: (sequenceNumber * 960) >>> 0, ssrc: 0x1234, marker: false });
      this.microphone.writeRtp(new RtpPacket(header, Buffer.from([0xf8, 0xff, 0xfe])));
    }, 20);
  }

  private async handle(event: string, data: unknown): Promise<void> {
    if (event === 'offer') {
      this.offers.push(Date.now());
      await this.pc.setRemoteDescription(data as never);
      skipServerReflexiveQuery(this.pc); // this side of the test needs no STUN server either
      if (!this.published) {
        const [audio, video] = this.pc.getTransceivers();
        for (const [transceiver, track] of [[audio!, this.microphone], [video!, new MediaStreamTrack({ kind: 'video' })]] as const) {
          transceiver.setDirection('sendonly');
          await transceiver.sender.replaceTrack(track);
        }
        this.published = true;
      }
      await this.pc.setLocalDescription(await this.pc.createAnswer());
      const answer = this.pc.localDescription!;
      // werift puts its candidates in the answer; a browser trickles them after it.
      const sdp = this.holding ? answer.sdp.replace(/a=(candidate:.*|end-of-candidates)\r\n/g, '') : answer.sdp;
      await this.member.handle('answer', { type: answer.type, sdp });
    } else if (event === 'candidate') {
      await this.pc.addIceCandidate(data as never);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.sending);
    this.member.leave();
    await closePeer(this.pc);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the in-process SFU (werift)', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  /** An engine closed after the test; its periodic key frames off unless asked for. */
  const engineForTest = (keyFrameIntervalMs = 60_000) => {
    const engine = new WeriftEngine({ maxParticipants: 4, hostAddresses: ['127.0.0.1'], keyFrameIntervalMs });
    cleanups.push(() => engine.close());
    return engine;
  };
  /** A peer in the room, closed after the test. */
  const joined = async (engine: WeriftEngine, roomId: string, userId: number, options?: Parameters<typeof Peer.join>[3]): Promise<Peer> => {
    const peer = await Peer.join(engine, roomId, userId, options);
    cleanups.push(() => peer.close());
    return peer;
  };

  it('offers at once, without asking a STUN server first (a firewall that drops the query cost 5 s a join)', async () => {
    const lookup = dns.promises.lookup;
    let lookups = 0;
    // A resolver that never answers: werift waited for its STUN query before sending the offer.
    dns.promises.lookup = (() => {
      lookups += 1;
      return new Promise(() => undefined);
    }) as typeof dns.promises.lookup;
    cleanups.push(() => void (dns.promises.lookup = lookup));
    const engine = engineForTest();
    const offers: Array<{ sdp: string }> = [];
    await engine.join('room-stun', 1, (event, data) => void (event === 'offer' && offers.push(data as { sdp: string })));
    await waitFor(() => offers.length === 1, 'the offer');
    assert.equal(lookups, 0, 'no STUN server was looked up');
    // Chrome starts its camera at this rate (docs/calls.md, Key frames).
    assert.match(offers[0]!.sdp, /a=fmtp:\d+ x-google-start-bitrate=1500/);
  });

  it('a candidate that comes after ICE nominated a pair is not checked: werift checked each, 20 ms apart, before it called ICE up', async () => {
    const engine = engineForTest();
    // Where the late candidate points: a check would arrive here.
    const late = dgram.createSocket('udp4');
    const checks: Buffer[] = [];
    late.on('message', (message) => checks.push(message));
    await new Promise<void>((resolve) => late.bind(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => late.close(() => resolve())));
    // Anna's candidates come late, as a browser's often do: the SFU nominates a pair from her checks first.
    const anna = await joined(engine, 'room-late', 1, { holdCandidates: true });
    const connection = anna.member.pc.iceTransports[0]!.connection as unknown as { nominated?: unknown };
    const deadline = Date.now() + WAIT_MS;
    while (connection.nominated === undefined) {
      if (Date.now() > deadline) throw new Error('timed out waiting for a nominated pair');
      await new Promise((resolve) => setImmediate(resolve));
    }
    const { port } = late.address();
    const trickled = [...anna.heldCandidates, { candidate: `candidate:9 1 udp 2122194687 127.0.0.1 ${port} typ host generation 0`, sdpMid: '0', sdpMLineIndex: 0 }];
    await Promise.all(trickled.map((candidate) => anna.member.handle('candidate', candidate)));
    await waitFor(() => anna.member.pc.connectionState === 'connected', 'the connection up');
    await sleep(300);
    assert.equal(checks.length, 0, 'no check was sent to the late candidate');
  });

  it('someone alone in a room who joins again (another tab, a reconnect) keeps the room: the next to join meets them', async () => {
    const engine = engineForTest();
    await joined(engine, 'room-rejoin', 1);
    const again = await joined(engine, 'room-rejoin', 1);
    await joined(engine, 'room-rejoin', 2); // Boris
    assert.deepEqual([...engine.participants('room-rejoin').keys()].sort(), [1, 2]);
    await again.close();
    assert.deepEqual([...engine.participants('room-rejoin').keys()], [2], 'the room stays with Boris in it');
  });

  it('a new subscription is fed only once the answer to the offer that carried it is applied', async () => {
    const engine = engineForTest();
    const anna = await joined(engine, 'room-fed', 1);
    await waitFor(() => anna.member.pc.connectionState === 'connected', 'Anna connected');
    anna.holdOffers = true;
    const boris = await joined(engine, 'room-fed', 2);
    await waitFor(() => boris.member.pc.connectionState === 'connected', 'Boris connected');
    // His answer announced his tracks: Anna is subscribed, and her answer to the offer that says so is held back.
    const subscriptions = (anna.member as unknown as { subscriptions: Map<string, { track: MediaStreamTrack }> }).subscriptions;
    await waitFor(() => subscriptions.has('2:audio'), "Anna's subscription to Boris");
    const track = subscriptions.get('2:audio')!.track;
    let written = 0;
    const write = track.writeRtp.bind(track);
    track.writeRtp = (rtp) => {
      written += 1;
      return write(rtp);
    };
    let received = 0;
    boris.member.pc.getTransceivers()[0]!.receiver.track.onReceiveRtp.subscribe(() => void (received += 1));
    boris.startSending();
    await waitFor(() => received >= 10, "the SFU receiving Boris's microphone");
    assert.equal(written, 0, 'nothing forwarded before her answer');
    anna.releaseOffers();
    await waitFor(() => written > 0, "Boris's packets forwarded once her answer is applied");
  });

  it('the one already in the room gets one offer when the joiner answers with both tracks, not one per track', async () => {
    const engine = engineForTest();
    const anna = await joined(engine, 'room-offers', 1);
    await waitFor(() => anna.pc.connectionState === 'connected', 'Anna connected');
    const boris = await joined(engine, 'room-offers', 2);
    await waitFor(() => boris.pc.connectionState === 'connected', 'Boris connected');
    await waitFor(() => anna.pc.getTransceivers().length === 4, "Anna receiving Boris's two tracks");
    await sleep(300); // a second offer would follow the first answer at once
    assert.equal(anna.offers.length, 2, 'her own offer, then one for both of Boris’s tracks');
  });

  it('a key frame request within the browser’s 300 ms throttle is sent when the throttle is over, once', async () => {
    const engine = engineForTest();
    const anna = await joined(engine, 'room-throttle', 1);
    await waitFor(() => anna.pc.connectionState === 'connected' && anna.member.pc.connectionState === 'connected', 'Anna connected');
    const before = anna.keyFrameRequests.length;
    anna.member.keyFrame();
    anna.member.keyFrame();
    anna.member.keyFrame();
    await waitFor(() => anna.keyFrameRequests.length === before + 2, 'the request and the one held back');
    const [first, second] = anna.keyFrameRequests.slice(before);
    assert.ok(second! - first! >= 290, `held back past the throttle (${second! - first!} ms)`);
    await sleep(500);
    assert.equal(anna.keyFrameRequests.length, before + 2, 'the requests within the throttle were sent once, together');
  });

  it('a subscriber’s own request for a key frame is passed on to the publisher', async () => {
    const engine = engineForTest();
    const anna = await joined(engine, 'room-pli', 1);
    const boris = await joined(engine, 'room-pli', 2);
    await waitFor(() => anna.member.pc.connectionState === 'connected' && boris.member.pc.connectionState === 'connected', 'both connected');
    // Anna's m-line for Boris's camera (after her own two and his microphone), once her answer to it is applied.
    await waitFor(() => anna.pc.getTransceivers().length === 4 && anna.pc.signalingState === 'stable', "Anna receiving Boris's camera");
    const camera = anna.pc.getTransceivers()[3]!.receiver;
    await sleep(900); // past the requests and the retry that came with the connections
    const before = boris.keyFrameRequests.length;
    await camera.sendRtcpPLI(camera.track.ssrc!);
    await waitFor(() => boris.keyFrameRequests.length > before, "a key frame request to Boris's browser");
  });

  it('the periodic key frames wait while someone in the room is still connecting', async () => {
    const engine = engineForTest(100);
    const anna = await joined(engine, 'room-periodic', 1);
    await waitFor(() => anna.pc.connectionState === 'connected' && anna.keyFrameRequests.length > 1, 'periodic key frame requests');
    // Boris joins and never answers: he is connecting for as long as the test looks.
    const boris = await Peer.join(engine, 'room-periodic', 2, { answer: false });
    await sleep(50);
    const during = anna.keyFrameRequests.length;
    await sleep(800);
    assert.equal(anna.keyFrameRequests.length, during, 'none while Boris connects');
    await boris.close();
    await waitFor(() => anna.keyFrameRequests.length > during, 'periodic requests again once he has gone');
  });
});
