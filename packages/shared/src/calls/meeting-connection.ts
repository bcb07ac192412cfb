import type { MeetingClientDataMap, MeetingClientEvent, MeetingEnvelope, MeetingServerFrame } from '@messenger/protocol';
import { checkMeetingFrame } from '../api/contract-check';
import { config } from '../config';
import type { MeetingTicket } from '../model/types';
import { meetingSocketUrl } from '../services/socket-urls';
import { markCallStage } from './stages';

/** Why a meeting connection closed for good. */
export type MeetingEnd = 'ended' | 'full' | 'refused';

export interface MeetingHandlers {
  /** A remote person's media arrived, in the stream the SFU names after them (`u<user id>`). */
  onTrack(streamId: string, track: MediaStreamTrack, stream: MediaStream): void;
  /** Who is in the room: user id → stream id. */
  onParticipants(participants: Map<number, string>): void;
  /** Who dropped and may come back (user id → seconds the server still holds their place). */
  onReconnecting(away: Map<number, number>): void;
  /** Whose picture is on (camera or screen) and whose is off, as their browsers say (user id → on). */
  onVideo(states: Map<number, boolean>): void;
  /** The server records this call: record my audio for the given call message. */
  onRecord(messageId: number): void;
  /** The socket dropped without the call ending: the session reconnects. */
  onDropped(): void;
  /** The call is over for this connection. */
  onEnd(reason: MeetingEnd): void;
}

/** What goes out on a connection: my microphone and picture (or the blank one), in one stream. */
export interface OutgoingMedia {
  audio: MediaStreamTrack | null;
  video: MediaStreamTrack | null;
  stream: MediaStream;
  /** A picture (camera or screen), not the blank one. */
  videoOn: boolean;
}

/**
 * Handlers that remember every call until the real ones are attached, then replay them in order: a connection
 * the shell's entry started (meeting-head-start.ts) runs before the calls engine has loaded.
 */
function waitingHandlers(queue: Array<(handlers: MeetingHandlers) => void>): MeetingHandlers {
  return {
    onTrack: (...args) => queue.push((handlers) => handlers.onTrack(...args)),
    onParticipants: (...args) => queue.push((handlers) => handlers.onParticipants(...args)),
    onReconnecting: (...args) => queue.push((handlers) => handlers.onReconnecting(...args)),
    onVideo: (...args) => queue.push((handlers) => handlers.onVideo(...args)),
    onRecord: (...args) => queue.push((handlers) => handlers.onRecord(...args)),
    onDropped: () => queue.push((handlers) => handlers.onDropped()),
    onEnd: (...args) => queue.push((handlers) => handlers.onEnd(...args)),
  };
}

/** Closing on purpose (hang-up): the server takes me out of the call. The server closes with it once I am out. */
const LEAVE_CLOSE_CODE = 1000;
/** Closing to connect again (a failed media path): the server holds my place, as for a drop. */
const RECONNECT_CLOSE_CODE = 4000;

/**
 * One connection to a call's room: the meeting socket (spec §7 frames `{event, data}`, data a JSON string) and
 * the peer connection with the server's SFU. The server offers, this side answers; candidates that arrive before
 * an offer is applied wait for it. My microphone and camera go out on the first audio and video m-lines.
 */
export class MeetingConnection {
  readonly pc: RTCPeerConnection;
  private readonly socket: WebSocket;
  private pendingCandidates: RTCIceCandidateInit[] = [];
  private chain: Promise<unknown> = Promise.resolve();
  private ping: ReturnType<typeof setInterval> | null = null;
  private published = false;
  private closed = false;
  private attached = false;
  private readonly waiting: Array<(handlers: MeetingHandlers) => void> = [];
  private handlers: MeetingHandlers;

  /** Without handlers, what happens waits for `attach`. */
  constructor(
    chatId: number,
    readonly ticket: MeetingTicket,
    private readonly myId: number,
    readonly outgoing: OutgoingMedia,
    handlers?: MeetingHandlers,
  ) {
    this.handlers = handlers ?? waitingHandlers(this.waiting);
    this.pc = new RTCPeerConnection({
      iceServers: ticket.ice_servers,
      iceTransportPolicy: ticket.ice_transport_policy ?? 'all',
      bundlePolicy: 'max-bundle',
    });
    this.pc.onicecandidate = (event) => {
      if (!event.candidate) return;
      // What its toJSON gives, field by field (RTCIceCandidateInit types `candidate` as optional; it never is here).
      const { candidate, sdpMid, sdpMLineIndex, usernameFragment } = event.candidate;
      this.send('candidate', { candidate, sdpMid, sdpMLineIndex, usernameFragment });
    };
    this.pc.oniceconnectionstatechange = () => {
      if (this.pc.iceConnectionState === 'connected') markCallStage('ice-connected');
    };
    this.pc.ontrack = (event) => {
      markCallStage('remote-track');
      const stream = event.streams[0];
      if (stream) this.handlers.onTrack(stream.id, event.track, stream);
    };
    this.socket = new WebSocket(meetingSocketUrl(chatId, ticket.token));
    this.socket.onopen = () => this.opened();
    this.socket.onmessage = (message) => this.receive(String(message.data));
    this.socket.onclose = (close) => {
      if (this.closed) return;
      // 4009: the room is full; 4403/4404 and the like: refused before the upgrade shows as 1006 without frames.
      if (close.code === 4009) this.finish('full');
      // The server closes with 1000 only when I am out of the call: it ended, I left or was taken out (each said
      // first with `ended`, which may still wait behind an offer being answered), another connection of mine took
      // over, or the server stopped (its rooms with it). A drop shows as anything else (1006, 1001, 1011).
      else if (close.code === LEAVE_CLOSE_CODE) this.finish('ended');
      else this.drop();
    };
  }

  /** The engine takes over a connection started without handlers: what happened so far is replayed, in order. */
  attach(handlers: MeetingHandlers): void {
    this.attached = true;
    this.handlers = handlers;
    for (const replay of this.waiting.splice(0)) replay(handlers);
  }

  /** Whether the calls engine has taken this connection over (then only it says what goes out). */
  get isAttached(): boolean {
    return this.attached;
  }

  /**
   * What goes out from now on: my microphone, and a picture (`videoOn`) or the blank one. A meeting tab's head start
   * connects before the devices are up (the other side's picture needs only the connection); they join it here,
   * with the answer when it is still to come, else on the senders already negotiated, without renegotiating. Runs
   * in turn with the server's frames, so an answer under way is never given half of them.
   */
  sendMedia(audio: MediaStreamTrack | null, video: MediaStreamTrack | null, videoOn: boolean): Promise<void> {
    const applied = this.chain.then(async () => {
      if (this.closed) return;
      this.outgoing.audio = audio;
      if (audio && !this.outgoing.stream.getAudioTracks().includes(audio)) this.outgoing.stream.addTrack(audio);
      if (this.published) await this.sender('audio')?.replaceTrack(audio);
      await this.replaceVideo(video, videoOn);
    });
    this.chain = applied.catch((error: unknown) => console.warn('outgoing media failed', error));
    return applied;
  }

  private opened(): void {
    markCallStage('socket-open');
    this.send('stream', { stream_id: this.outgoing.stream.id, user_id: this.myId });
    this.send('video', { on: this.outgoing.videoOn });
    this.ping = setInterval(() => this.send('ping', {}), config.pingIntervalMs);
  }

  private receive(text: string): void {
    let frame: MeetingEnvelope;
    try {
      frame = JSON.parse(text) as MeetingEnvelope;
    } catch {
      return;
    }
    // In order: an offer is applied before the candidates that follow it.
    this.chain = this.chain.then(() => this.handle(frame)).catch((error: unknown) => console.warn('meeting frame failed', error));
  }

  /**
   * Swaps the track on my video m-line (camera, screen or the blank picture) without renegotiating, and tells the
   * others whether it is a picture (`on`) or the blank one: their tile shows my avatar exactly while it is off.
   */
  async replaceVideo(track: MediaStreamTrack | null, on: boolean): Promise<void> {
    this.outgoing.video = track;
    if (this.outgoing.videoOn !== on) {
      this.outgoing.videoOn = on;
      this.send('video', { on });
    }
    await this.sender('video')?.replaceTrack(track);
  }

  /** Closes this connection: `leaving` the call (hang-up), or only this connection, to connect again. */
  close(leaving = true): void {
    if (this.closed) return;
    this.closed = true;
    this.stopTimers();
    // Nothing of this connection reaches the session any more: it may be connecting again already.
    this.socket.onclose = null;
    this.socket.onmessage = null;
    if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING) {
      this.socket.close(leaving ? LEAVE_CLOSE_CODE : RECONNECT_CLOSE_CODE, leaving ? 'leave' : 'reconnect');
    }
    this.pc.close();
  }

  private async handle(envelope: MeetingEnvelope): Promise<void> {
    // Frames queued before the close (behind an offer being answered) are not acted on after it.
    if (this.closed) return;
    // Development builds and tests only (production builds drop it, with the schemas): see api/contract-check.ts.
    if (process.env.NODE_ENV !== 'production') checkMeetingFrame(envelope, 'server');
    // As the contract says it (docs/protocol.md); an event it does not know is passed over.
    const frame = { event: envelope.event, data: envelope.data ? JSON.parse(envelope.data) : null } as MeetingServerFrame;
    switch (frame.event) {
      case 'offer':
        await this.answer(frame.data);
        break;
      case 'candidate':
        // One unusable candidate is not a failure: ICE goes on with the others.
        if (this.pc.remoteDescription) await this.pc.addIceCandidate(frame.data).catch(() => undefined);
        else this.pendingCandidates.push(frame.data);
        break;
      case 'participants': {
        const entries = Object.entries(frame.data ?? {}).map(([id, stream]) => [Number(id), stream] as const);
        this.handlers.onParticipants(new Map(entries.filter(([id]) => id !== this.myId)));
        break;
      }
      case 'reconnecting': {
        const entries = Object.entries(frame.data ?? {}).map(([id, seconds]) => [Number(id), Number(seconds)] as const);
        this.handlers.onReconnecting(new Map(entries.filter(([id]) => id !== this.myId)));
        break;
      }
      case 'video': {
        const entries = Object.entries(frame.data ?? {}).map(([id, on]) => [Number(id), on === true] as const);
        this.handlers.onVideo(new Map(entries.filter(([id]) => id !== this.myId)));
        break;
      }
      case 'record_audio':
        // Null when the call's message is gone (auto-delete): there is nothing a recording could be stored under.
        if (frame.data.message_id !== null) this.handlers.onRecord(frame.data.message_id);
        break;
      case 'full':
        this.finish('full');
        break;
      case 'ended':
        this.finish('ended');
        break;
      default:
        break;
    }
  }

  private async answer(offer: RTCSessionDescriptionInit): Promise<void> {
    markCallStage('offer');
    await this.pc.setRemoteDescription(offer);
    if (!this.published) {
      // The server's first audio and video m-lines receive my microphone and camera.
      const transceivers = this.pc.getTransceivers();
      const audio = transceivers.find((transceiver) => transceiver.receiver.track.kind === 'audio');
      const video = transceivers.find((transceiver) => transceiver.receiver.track.kind === 'video');
      if (audio) {
        audio.direction = 'sendonly';
        await audio.sender.replaceTrack(this.outgoing.audio);
      }
      if (video) {
        video.direction = 'sendonly';
        await video.sender.replaceTrack(this.outgoing.video);
      }
      this.published = true;
    }
    const answer = await this.pc.createAnswer();
    await this.pc.setLocalDescription(answer);
    // What its toJSON gives: the answer just set.
    const local = this.pc.localDescription;
    if (local?.type === 'answer') this.send('answer', { type: local.type, sdp: local.sdp });
    markCallStage('answer-sent');
    const early = this.pendingCandidates;
    this.pendingCandidates = [];
    for (const candidate of early) await this.pc.addIceCandidate(candidate).catch(() => undefined);
  }

  /** The sender of my microphone or picture: the first m-line of its kind (null before the first offer). */
  private sender(kind: 'audio' | 'video'): RTCRtpSender | null {
    return this.pc.getTransceivers().find((transceiver) => transceiver.receiver.track.kind === kind)?.sender ?? null;
  }

  private send<Event extends MeetingClientEvent>(event: Event, data: MeetingClientDataMap[Event]): void {
    if (this.socket.readyState !== WebSocket.OPEN) return;
    const frame: MeetingEnvelope = { event, data: JSON.stringify(data) };
    // Development builds and tests only: the server would refuse a frame outside the contract.
    if (process.env.NODE_ENV !== 'production') checkMeetingFrame(frame, 'client');
    this.socket.send(JSON.stringify(frame));
  }

  private drop(): void {
    this.close(false);
    this.handlers.onDropped();
  }

  private finish(reason: MeetingEnd): void {
    this.close();
    this.handlers.onEnd(reason);
  }

  private stopTimers(): void {
    if (this.ping) clearInterval(this.ping);
    this.ping = null;
  }
}
