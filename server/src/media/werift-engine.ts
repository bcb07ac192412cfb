import { MediaStreamTrack, RTCPeerConnection, useAbsSendTime, useOPUS, usePCMU, useSdesMid, useVP8, type RTCRtpTransceiver, type RtpPacket } from 'werift';
import { keepEarlyDtlsPackets } from './early-dtls.js';
import type { MeetingCandidate } from '@messenger/protocol';
import { RoomFullError, type MediaEngine, type MeetingSink, type RoomMember } from './engine.js';

export interface WeriftEngineOptions {
  /** Most participants a room holds. */
  maxParticipants: number;
  /** Addresses offered as host candidates besides the machine's own (loopback networks need 127.0.0.1). */
  hostAddresses: string[];
  /** UDP ports to use, when a firewall allows only a range. */
  portRange?: [number, number] | undefined;
  /** How often every publisher is asked for a key frame, so no subscriber stays without a picture. */
  keyFrameIntervalMs?: number;
  onError?: (error: unknown) => void;
}

type Kind = 'audio' | 'video';
const KINDS: readonly Kind[] = ['audio', 'video'];

interface Subscription {
  track: MediaStreamTrack;
  transceiver: RTCRtpTransceiver;
  /** In an offer sent to the subscriber; fed once the answer to it is applied. */
  offered: boolean;
  fed: boolean;
  stop: () => void;
}

/** A browser ignores a key frame request that comes within this long of the one before (measured on arrival). */
const KEY_FRAME_THROTTLE_MS = 300;
/** Added to the throttle for the request's way to the browser. */
const KEY_FRAME_THROTTLE_MARGIN_MS = 50;
/** A subscriber that came up asks again this much later, past the throttle, for a request of another's it lost to. */
const KEY_FRAME_RETRY_MS = KEY_FRAME_THROTTLE_MS + 100;
/**
 * How long a new connection may take to come up before the periodic key frames stop waiting for it: call set-up
 * takes about half a second; a connection that takes longer must not hold a room's pictures back for long.
 */
const SET_UP_GRACE_MS = 3_000;
/** The video send rate a browser starts at (kbit/s); measured on loopback, see docs/calls.md. */
const VIDEO_START_KBPS = 1500;

/** One participant: a peer connection with the server that publishes their media and carries everyone else's. */
class Participant implements RoomMember {
  readonly pc: RTCPeerConnection;
  readonly streamId: string;
  readonly published = new Map<Kind, MediaStreamTrack>();
  readonly subscriptions = new Map<string, Subscription>();
  /**
   * Who forwards this participant's microphone and camera. A subscriber takes both at once — one renegotiation, not
   * one per track as each is announced.
   */
  private readonly forwards: Record<Kind, Set<(rtp: RtpPacket) => void>> = { audio: new Set(), video: new Set() };
  private requestVideoKeyFrame: (() => void) | null = null;
  /** When the last key frame request went to this participant (performance.now()), or -Infinity. */
  private lastKeyFrameRequest = Number.NEGATIVE_INFINITY;
  private deferredKeyFrame: ReturnType<typeof setTimeout> | null = null;
  private readonly joinedAt = performance.now();
  private negotiating = false;
  private negotiateAgain = false;
  private left = false;
  /** Candidates gathered before the first offer went out; null once it has. */
  private pendingCandidates: MeetingCandidate[] | null = [];

  constructor(
    private readonly room: Room,
    readonly userId: number,
    private readonly send: MeetingSink,
    options: WeriftEngineOptions,
  ) {
    this.streamId = `u${userId}`;
    this.pc = new RTCPeerConnection({
      iceAdditionalHostAddresses: options.hostAddresses,
      iceUseIpv6: false,
      // One transport for every m-line: werift otherwise gathers sockets per m-line and leaks the ones bundling drops.
      bundlePolicy: 'max-bundle',
      ...(options.portRange ? { icePortRange: options.portRange } : {}),
      headerExtensions: { video: [useSdesMid(), useAbsSendTime()], audio: [useSdesMid()] },
      // Chrome reads its starting send rate from the offer's fmtp; at its default (300 kbit/s) its encoder drops
      // the first frames of a 720p camera and starts over smaller, 100–180 ms after DTLS is up (the call set-up
      // bench); started higher, the first frame leaves 35–100 ms after. Its bandwidth estimate takes over from there.
      codecs: { audio: [useOPUS(), usePCMU()], video: [useVP8({ parameters: `x-google-start-bitrate=${VIDEO_START_KBPS}` })] },
    });
    this.pc.onIceCandidate.subscribe((candidate) => {
      if (!candidate || this.left) return;
      // Gathering starts inside setLocalDescription, before the offer is sent: a candidate must not overtake it.
      if (this.pendingCandidates) this.pendingCandidates.push(candidate.toJSON());
      else this.send('candidate', candidate.toJSON());
    });
    // A subscriber's first picture needs a key frame that reaches it, so it is asked for once the subscriber's
    // DTLS is up: asked for earlier (when its answer is applied), the key frame is sent before the subscriber can
    // take it, and a browser ignores a second request within 300 ms of the first — the picture then waited for
    // the next periodic key frame (the call set-up bench saw p90 2.5 s from Accept to the first frame). Asked again
    // a little later, for when another request of the same publisher was throttled.
    this.pc.connectionStateChange.subscribe((state) => {
      if (state !== 'connected' || this.left) return;
      this.room.requestKeyFrames(this);
      setTimeout(() => {
        if (!this.left) this.room.requestKeyFrames(this);
      }, KEY_FRAME_RETRY_MS).unref();
    });
    // The first two m-lines receive this participant's own microphone and camera.
    for (const kind of KINDS) {
      const transceiver = this.pc.addTransceiver(kind, { direction: 'recvonly' });
      let received: { unSubscribe: () => void } | null = null;
      transceiver.onTrack.subscribe((track) => {
        received?.unSubscribe();
        received = track.onReceiveRtp.subscribe((rtp) => {
          for (const forward of this.forwards[kind]) forward(rtp);
        });
        this.published.set(kind, track);
        const ssrc = track.ssrc;
        if (kind === 'video' && ssrc !== undefined) this.requestVideoKeyFrame = () => void transceiver.receiver.sendRtcpPLI(ssrc).catch(() => undefined);
        this.room.published(this);
      });
    }
  }

  /**
   * Asks this participant's browser for a key frame of their video. A request within the browser's throttle of the
   * last one would be ignored — and a subscriber that just came up would then wait for the retry — so it is sent
   * once the throttle is over instead (one at a time). A periodic request (`periodic`) is dropped instead: one has
   * just gone out, and held over it could land just before someone's DTLS is up, which the periodic requests
   * avoid (WeriftEngine).
   */
  keyFrame({ periodic = false } = {}): void {
    // Before its DTLS is up a request cannot reach the browser (and its first frame is a key frame anyway).
    if (!this.requestVideoKeyFrame || this.left || this.pc.connectionState !== 'connected') return;
    const wait = Math.min(
      this.lastKeyFrameRequest + KEY_FRAME_THROTTLE_MS + KEY_FRAME_THROTTLE_MARGIN_MS - performance.now(),
      KEY_FRAME_THROTTLE_MS + KEY_FRAME_THROTTLE_MARGIN_MS,
    );
    if (wait <= 0) {
      this.lastKeyFrameRequest = performance.now();
      this.requestVideoKeyFrame();
    } else if (!periodic && !this.deferredKeyFrame) {
      this.deferredKeyFrame = setTimeout(() => {
        this.deferredKeyFrame = null;
        this.keyFrame();
      }, wait);
      this.deferredKeyFrame.unref();
    }
  }

  /** Still connecting for the first time (within a grace period: a browser that never answers holds nothing up). */
  get settingUp(): boolean {
    const state = this.pc.connectionState;
    return (state === 'new' || state === 'connecting') && performance.now() - this.joinedAt < SET_UP_GRACE_MS;
  }

  /**
   * Starts forwarding `publisher`'s media to this participant; a renegotiation follows unless the caller sends the
   * offer itself (`negotiate: false`, a participant joining).
   */
  subscribe(publisher: Participant, { negotiate = true } = {}): void {
    let added = false;
    for (const kind of KINDS) {
      const key = `${publisher.userId}:${kind}`;
      if (this.subscriptions.has(key)) continue;
      const track = new MediaStreamTrack({ kind });
      const transceiver = this.pc.addTransceiver(track, { direction: 'sendonly' });
      // Both tracks of a publisher arrive in one stream named after them, so the browser can tell who is who.
      transceiver.sender.streamId = publisher.streamId;
      // A subscriber's browser asks for a key frame when it lost one (or cannot decode): passed on to the
      // publisher, through its throttle, so the picture comes back without waiting for the periodic request.
      const askedForKeyFrame = kind === 'video' ? transceiver.sender.onPictureLossIndication.subscribe(() => publisher.keyFrame()) : null;
      const subscription: Subscription = {
        track,
        transceiver,
        offered: false,
        fed: false,
        stop: () => {
          publisher.forwards[kind].delete(forward);
          askedForKeyFrame?.unSubscribe();
        },
      };
      // Packets of an m-line the browser has not applied yet sometimes left it with no media at all.
      const forward = (rtp: RtpPacket): void => {
        if (subscription.fed) track.writeRtp(rtp);
      };
      publisher.forwards[kind].add(forward);
      this.subscriptions.set(key, subscription);
      added = true;
    }
    if (added && negotiate) void this.negotiate();
  }

  /** Stops forwarding a publisher who left (a renegotiation follows). */
  unsubscribe(publisherId: number): void {
    let removed = false;
    for (const [key, subscription] of this.subscriptions) {
      if (!key.startsWith(`${publisherId}:`)) continue;
      subscription.stop();
      try {
        this.pc.removeTrack(subscription.transceiver.sender);
      } catch {
        // already gone with its connection
      }
      this.subscriptions.delete(key);
      removed = true;
    }
    if (removed) void this.negotiate();
  }

  /** Sends a fresh offer; while one is outstanding, the next waits for its answer. Never rejects. */
  async negotiate(): Promise<void> {
    if (this.left) return;
    if (this.negotiating) {
      this.negotiateAgain = true;
      return;
    }
    this.negotiating = true;
    try {
      skipServerReflexiveQuery(this.pc); // before every offer: werift reads the address as gathering starts
      const inThisOffer = [...this.subscriptions.values()];
      await this.pc.setLocalDescription(await this.pc.createOffer());
      if (this.left) return;
      for (const subscription of inThisOffer) subscription.offered = true;
      // The first offer creates the DTLS transport: from now on, an early handshake packet is kept for it.
      keepEarlyDtlsPackets(this.pc);
      // Just set from createOffer: werift's typing allows none, or an answer.
      const offer = this.pc.localDescription;
      if (offer?.type !== 'offer') throw new Error('werift set no local offer');
      this.send('offer', { sdp: offer.sdp, type: offer.type });
      const early = this.pendingCandidates ?? [];
      this.pendingCandidates = null;
      for (const candidate of early) this.send('candidate', candidate);
    } catch (error) {
      this.negotiating = false;
      // A participant who left meanwhile closed the connection: nothing to report.
      if (!this.left) this.room.reportError(error);
    }
  }

  async handle(event: 'answer' | 'candidate', data: unknown): Promise<void> {
    if (this.left) return;
    if (event === 'answer') {
      await this.pc.setRemoteDescription(data as never);
      this.negotiating = false;
      for (const subscription of this.subscriptions.values()) if (subscription.offered) subscription.fed = true;
      // Lesson from the probe: feed new subscribers, and ask for key frames, only once their answer is applied —
      // and, on a first connection, once DTLS is up (above).
      if (this.pc.connectionState === 'connected') this.room.requestKeyFrames(this);
      if (this.negotiateAgain) {
        this.negotiateAgain = false;
        await this.negotiate();
      }
    } else if (event === 'candidate') {
      // A candidate that comes after a pair was nominated can no longer matter, but werift would check it (one every
      // 20 ms) before it calls ICE connected and starts DTLS: the browser's own candidates, trickled after its
      // answer, often come after the first check nominated a pair (the call set-up bench: 100 ms).
      if (iceNominated(this.pc)) return;
      await this.pc.addIceCandidate(data as never).catch(() => undefined);
    }
  }

  leave(): void {
    if (this.left) return;
    this.left = true;
    if (this.deferredKeyFrame) clearTimeout(this.deferredKeyFrame);
    for (const subscription of this.subscriptions.values()) subscription.stop();
    this.subscriptions.clear();
    void closePeer(this.pc);
    this.room.left(this);
  }
}

/**
 * werift asks a STUN server for a server-reflexive candidate on every connection — stun.l.google.com when none is
 * configured, with no switch to turn it off — and sends the offer only when that query ends: a round trip to
 * Google before every join, and 5 s where a firewall drops it. The SFU needs no such candidate (it offers its own
 * addresses and MEDIA_HOST_ADDRESSES), so the query is skipped. werift reads the address when gathering starts, in
 * setLocalDescription; its transport exists once the first transceiver is added (werift is pinned: a test fails
 * if this stops holding).
 */
export function skipServerReflexiveQuery(pc: RTCPeerConnection): void {
  for (const transport of pc.iceTransports) (transport.connection as { stunServer?: unknown }).stunServer = undefined;
}

/** Whether ICE has nominated a pair (werift's connection keeps it until an ICE restart, which the SFU never does). */
function iceNominated(pc: RTCPeerConnection): boolean {
  return pc.iceTransports.some((transport) => (transport.connection as { nominated?: unknown }).nominated !== undefined);
}

/**
 * Closes a peer connection without leaking sockets: werift's close() misses the ones a gathering still under way
 * opens afterwards, so it waits for gathering to finish (host candidates take milliseconds).
 */
export async function closePeer(pc: RTCPeerConnection): Promise<void> {
  if (pc.iceGatheringState === 'gathering') {
    await pc.iceGatheringStateChange.watch((state) => state === 'complete', 5000).catch(() => undefined);
  }
  await pc.close().catch(() => undefined);
}

class Room {
  readonly members = new Map<number, Participant>();

  constructor(
    readonly id: string,
    private readonly engine: WeriftEngine,
  ) {}

  add(member: Participant): void {
    this.members.set(member.userId, member);
    // One offer to the joiner with everyone publishing: an offer per subscription made the first one outstanding,
    // so a second followed at once after the answer, while ICE and DTLS were starting (the call set-up bench saw
    // the joiner's ICE take 200 ms instead of 15 when it did).
    for (const other of this.members.values()) if (other !== member && other.published.size > 0) member.subscribe(other, { negotiate: false });
    void member.negotiate();
  }

  /** A participant's answer announced their media: everyone else starts receiving it. */
  published(publisher: Participant): void {
    for (const other of this.members.values()) if (other !== publisher) other.subscribe(publisher);
  }

  /** A subscriber is ready: every publisher sends a key frame so its picture starts at once. */
  requestKeyFrames(subscriber: Participant): void {
    for (const other of this.members.values()) if (other !== subscriber) other.keyFrame();
  }

  reportError(error: unknown): void {
    this.engine.reportError(error);
  }

  left(member: Participant): void {
    if (this.members.get(member.userId) !== member) return;
    this.members.delete(member.userId);
    for (const other of this.members.values()) other.unsubscribe(member.userId);
    if (this.members.size === 0) this.engine.forget(this);
  }
}

/**
 * The in-process SFU, on werift (pure TypeScript WebRTC). Every participant has one peer connection with the
 * server; the server offers (its receivers for the participant's media, and one sender per other participant's
 * track) and renegotiates whenever someone joins or leaves. Key frames are requested when someone subscribes and
 * periodically.
 */
export class WeriftEngine implements MediaEngine {
  private readonly rooms = new Map<string, Room>();
  private readonly keyFrames: ReturnType<typeof setInterval>;

  constructor(private readonly options: WeriftEngineOptions) {
    this.keyFrames = setInterval(() => {
      for (const room of this.rooms.values()) {
        // Someone connecting asks for key frames once they are up; a periodic request just before would make the
        // browsers ignore theirs (the bench saw that cost 400 ms).
        if ([...room.members.values()].some((member) => member.settingUp)) continue;
        for (const member of room.members.values()) member.keyFrame({ periodic: true });
      }
    }, options.keyFrameIntervalMs ?? 2000);
    this.keyFrames.unref();
  }

  async join(roomId: string, userId: number, send: MeetingSink): Promise<RoomMember> {
    let room = this.rooms.get(roomId);
    if (!room) {
      room = new Room(roomId, this);
      this.rooms.set(roomId, room);
    }
    // The same person joining again (a reconnect, another tab) replaces their earlier connection.
    room.members.get(userId)?.leave();
    // If they were alone, leaving emptied the room and the engine forgot it: it is theirs again.
    this.rooms.set(roomId, room);
    if (room.members.size >= this.options.maxParticipants) throw new RoomFullError(`room ${roomId} is full`);
    const member = new Participant(room, userId, send, this.options);
    room.add(member);
    return member;
  }

  participants(roomId: string): Map<number, string> {
    const room = this.rooms.get(roomId);
    return new Map([...(room?.members.values() ?? [])].map((member) => [member.userId, member.streamId]));
  }

  publishing(roomId: string): Map<number, Array<'audio' | 'video'>> {
    const room = this.rooms.get(roomId);
    return new Map([...(room?.members.values() ?? [])].map((member) => [member.userId, [...member.published.keys()]]));
  }

  closeRoom(roomId: string): void {
    const room = this.rooms.get(roomId);
    if (!room) return;
    for (const member of [...room.members.values()]) member.leave();
    this.rooms.delete(roomId);
  }

  close(): void {
    clearInterval(this.keyFrames);
    for (const roomId of [...this.rooms.keys()]) this.closeRoom(roomId);
  }

  /** An emptied room goes — unless a newer room of the same id took its place. */
  forget(room: Room): void {
    if (this.rooms.get(room.id) === room) this.rooms.delete(room.id);
  }

  reportError(error: unknown): void {
    this.options.onError?.(error);
  }
}
