import {
  ApiError,
  acquireCallMedia,
  acquireCamera,
  acquireMicrophone,
  acquireScreen,
  callsApi,
  config,
  hangUpCall,
  releaseStream,
  markCallStage,
  MediaAccessError,
  MeetingConnection,
  takeMeetingHeadStart,
  type MeetingEnd,
  type MeetingHandlers,
  type MeetingTicket,
} from '@messenger/shared';
import { blankVideoTrack } from './blank-video';
import { CallRecorder } from './recorder';
import { pollStats } from './stats';

/** One other person as the engine knows them; the UI adds their name and avatar. */
export interface RemoteMedia {
  userId: number;
  stream: MediaStream | null;
  frameRate: number;
  audioLevel: number;
  /** Their connection dropped; the server holds their place while they try to come back. */
  reconnecting: boolean;
  /** They say their camera (and screen) is off: they send the blank picture. */
  videoOff: boolean;
}

export interface SessionSnapshot {
  phase: 'ringing' | 'connecting' | 'active' | 'reconnecting';
  connectedAt: number | null;
  remotes: RemoteMedia[];
  localStream: MediaStream | null;
  localAudioLevel: number;
  muted: boolean;
  cameraOn: boolean;
  screenSharing: boolean;
  /** The server records this call (its `record_audio` came): everyone in it is told, whether or not this browser can record. */
  recorded: boolean;
}

export type SessionEnd = 'hungUp' | 'ended' | 'full' | 'unanswered' | 'lastLeft' | 'failed' | 'noMedia';

export interface SessionOptions {
  chatId: number;
  myId: number;
  myRole: number;
  /** I started the call: it rings until someone comes. */
  outgoing: boolean;
  onChange(snapshot: SessionSnapshot): void;
  /** The session is over (the UI closes the window). */
  onEnd(reason: SessionEnd): void;
  /** The camera, microphone or screen could not be used. */
  onMediaError(kind: 'mediaFailed' | 'screenShareFailed', error: MediaAccessError | Error): void;
}

/**
 * After the last other person left (on purpose, or their place was given up), the call ends after this pause: the
 * server's frames about a return (`participants`, `reconnecting`) may come in either order. People whose connection
 * dropped are not "left": they are `reconnecting`, for as long as the server holds their place.
 */
const LAST_LEFT_GRACE_MS = 2_000;

/**
 * A peer connection `disconnected` this long is replaced as if it had failed: a brief loss of the network recovers
 * within a few seconds by itself, while the browser may take tens of seconds to call a dead media path `failed`.
 */
const DISCONNECTED_GRACE_MS = 5_000;

/**
 * A call as this tab takes part in it: my media, the connection with the SFU (re-established if the meeting
 * socket drops), the others' streams with their frame rate and loudness, recording when the server asks, and
 * the rules of spec §2: the call ends by itself when the last other person leaves, and an outgoing call nobody
 * answers gives up after 60 s.
 */
export class CallSession {
  private connection: MeetingConnection | null = null;
  private microphone: MediaStream | null = null;
  private camera: MediaStreamTrack | null = null;
  private screen: MediaStreamTrack | null = null;
  private blankVideo: MediaStreamTrack | null = null;
  /** What goes out: my microphone's track (the video m-line's track is swapped on the sender). */
  private outgoingStream = new MediaStream();
  private readonly streams = new Map<string, MediaStream>();
  private participants = new Map<number, string>();
  /** Others whose connection dropped, who may come back (the server's `reconnecting`). */
  private away = new Set<number>();
  /** How long I keep trying to come back after a drop: the server's `reconnect_seconds`, from my last ticket. */
  private reconnectWindowMs: number | null = null;
  /** The call this session is in, once its ticket came: a hang-up names it. */
  private callId: number | null = null;
  /** Whose picture is on or off, as the others' browsers say (the server's `video`). */
  private videoStates = new Map<number, boolean>();
  private readonly stats = new Map<number, { frameRate: number; audioLevel: number }>();
  private localAudioLevel = 0;
  private connectedAt: number | null = null;
  /** Set from a drop until the new peer connection is connected: "Reconnecting…", and the window counted from `droppedAt`. */
  private reconnecting = false;
  private droppedAt: number | null = null;
  private recorder: CallRecorder | null = null;
  /** The call message the server records under (`record_audio`): a replaced microphone's recording goes on there. */
  private recordingMessageId: number | null = null;
  /** The server asked for recording (`record_audio`): the call window says the call is recorded. */
  private recorded = false;
  private statsTimer: ReturnType<typeof setInterval> | null = null;
  private unansweredTimer: ReturnType<typeof setTimeout> | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private lastLeftTimer: ReturnType<typeof setTimeout> | null = null;
  private disconnectedTimer: ReturnType<typeof setTimeout> | null = null;
  /** The end of the reconnect window after a drop: a new socket whose media path never comes up ends there too. */
  private windowTimer: ReturnType<typeof setTimeout> | null = null;
  /** A camera or screen being asked for: a second click joins it (two at once left one running, unseen and unstopped). */
  private cameraStarting: Promise<void> | null = null;
  private screenStarting: Promise<void> | null = null;
  private over = false;

  constructor(private readonly options: SessionOptions) {}

  async start(): Promise<void> {
    // Counted from the moment the call opens, not from when the camera is ready; cleared once someone is in the
    // call. Someone who answered and dropped is away, not gone: their place is held, so the call does not give up.
    if (this.options.outgoing) {
      this.unansweredTimer = setTimeout(() => {
        this.unansweredTimer = null;
        if (this.participants.size === 0 && this.away.size === 0) void this.hangUp('unanswered');
      }, config.incomingCallAutoCloseMs);
    }
    // The shell's entry may have started the devices, the ticket and the socket already (a meeting tab); what it
    // could not do is done here. The ticket is fetched while the camera and microphone start, not after.
    const headStart = takeMeetingHeadStart(this.options.chatId);
    const firstTicket = headStart
      ? headStart.ticket.then((ticket) => ticket ?? callsApi.ticket(this.options.chatId))
      : callsApi.ticket(this.options.chatId);
    firstTicket.catch(() => undefined); // awaited (and its failure handled) in connect()
    try {
      const { stream, cameraError } = await (headStart?.media ?? acquireCallMedia(true));
      markCallStage('media');
      this.microphone = stream;
      this.camera = stream.getVideoTracks()[0] ?? null;
      for (const track of stream.getAudioTracks()) this.watchMicrophone(track);
      if (this.camera) this.watchCamera(this.camera);
      if (cameraError) this.options.onMediaError('mediaFailed', cameraError);
    } catch (error) {
      this.options.onMediaError('mediaFailed', error as Error);
      void headStart?.connection.then((early) => early?.close());
      await this.hangUp('noMedia');
      return;
    }
    if (this.over) {
      void headStart?.connection.then((early) => early?.close());
      return this.release();
    }
    for (const track of this.microphone.getAudioTracks()) this.outgoingStream.addTrack(track);
    this.blankVideo = blankVideoTrack();
    this.statsTimer = setInterval(() => void this.sample(), 1000);
    this.emit();
    await this.connect(firstTicket, headStart?.connection);
  }

  snapshot(): SessionSnapshot {
    const others = [...new Set([...this.participants.keys(), ...this.away])];
    return {
      phase: this.reconnecting
        ? 'reconnecting'
        : others.length > 0 || this.connectedAt !== null
          ? 'active'
          : this.options.outgoing
            ? 'ringing'
            : 'connecting',
      connectedAt: this.connectedAt,
      remotes: others.map((userId) => ({
        userId,
        stream: this.streams.get(this.participants.get(userId)!) ?? null,
        frameRate: this.stats.get(userId)?.frameRate ?? 0,
        audioLevel: this.stats.get(userId)?.audioLevel ?? 0,
        reconnecting: this.away.has(userId) && !this.participants.has(userId),
        videoOff: this.videoStates.get(userId) === false,
      })),
      localStream: this.previewStream(),
      localAudioLevel: this.localAudioLevel,
      muted: !this.microphoneLive(),
      cameraOn: this.camera !== null,
      screenSharing: this.screen !== null,
      recorded: this.recorded,
    };
  }

  toggleMute(): void {
    const microphone = this.microphone?.getAudioTracks()[0];
    // A microphone that stopped and could not be replaced shows as muted: unmuting asks for one again.
    if (microphone?.readyState === 'ended') return void this.replaceMicrophone(microphone, true);
    for (const track of this.microphone?.getAudioTracks() ?? []) track.enabled = !track.enabled;
    this.emit();
  }

  toggleCamera(): Promise<void> {
    if (this.cameraStarting) return this.cameraStarting;
    if (this.camera) return this.cameraOff();
    this.cameraStarting = this.cameraOn().finally(() => {
      this.cameraStarting = null;
    });
    return this.cameraStarting;
  }

  toggleScreenShare(): Promise<void> {
    if (this.screenStarting) return this.screenStarting;
    if (this.screen) {
      this.stopScreen();
      return this.sendVideo();
    }
    this.screenStarting = this.screenOn().finally(() => {
      this.screenStarting = null;
    });
    return this.screenStarting;
  }

  private async cameraOff(): Promise<void> {
    this.camera?.stop();
    this.camera = null;
    await this.sendVideo();
  }

  private async cameraOn(): Promise<void> {
    try {
      const track = (await acquireCamera()).getVideoTracks()[0] ?? null;
      if (!track || this.over) return track?.stop();
      this.stopScreen();
      this.camera?.stop();
      this.camera = track;
      this.watchCamera(track);
      await this.sendVideo();
    } catch (error) {
      this.options.onMediaError('mediaFailed', error as Error);
    }
  }

  private async screenOn(): Promise<void> {
    try {
      const track = (await acquireScreen()).getVideoTracks()[0] ?? null;
      if (!track || this.over) return track?.stop();
      // The camera and the screen share one video m-line: one replaces the other.
      this.camera?.stop();
      this.camera = null;
      this.stopScreen();
      this.screen = track;
      // The browser's own "Stop sharing" button: back to the blank picture.
      track.addEventListener('ended', () => {
        if (this.screen !== track) return;
        this.screen = null;
        void this.sendVideo();
      });
      await this.sendVideo();
    } catch (error) {
      this.options.onMediaError('screenShareFailed', error as Error);
    }
  }

  /** A camera that stops by itself (unplugged, taken by the system) turns the camera off, and says so. */
  private watchCamera(track: MediaStreamTrack): void {
    track.addEventListener('ended', () => {
      if (this.camera !== track || this.over) return;
      void this.cameraOff();
      this.options.onMediaError('mediaFailed', new MediaAccessError('The camera stopped.', 'Ended'));
    });
  }

  /** A microphone that stops by itself (unplugged) is replaced by the one the browser gives now. */
  private watchMicrophone(track: MediaStreamTrack): void {
    track.addEventListener('ended', () => void this.replaceMicrophone(track, track.enabled));
  }

  /**
   * Asks for a microphone in place of `ended`, and sends it on the same m-line (`enabled`: unmuted). When there is
   * none, the error is shown and the call goes on muted; unmuting asks again.
   */
  private async replaceMicrophone(ended: MediaStreamTrack, enabled: boolean): Promise<void> {
    if (this.over || !this.microphone?.getAudioTracks().includes(ended)) return;
    let track: MediaStreamTrack | null;
    try {
      track = (await acquireMicrophone()).getAudioTracks()[0] ?? null;
    } catch (error) {
      this.options.onMediaError('mediaFailed', error as Error);
      return this.emit();
    }
    // The session ended, or another replacement got there first, meanwhile.
    if (!track || this.over || !this.microphone.getAudioTracks().includes(ended)) return track?.stop();
    track.enabled = enabled;
    this.watchMicrophone(track);
    this.microphone = new MediaStream([...this.microphone.getTracks().filter((other) => other !== ended), track]);
    if (this.outgoingStream.getAudioTracks().includes(ended)) {
      this.outgoingStream.removeTrack(ended);
      this.outgoingStream.addTrack(track);
    }
    ended.stop();
    // Without a connection (reconnecting), the next one takes the microphone from this.microphone.
    await this.connection?.sendMedia(track, this.currentVideo(), this.videoOn()).catch(() => undefined);
    if (this.recorder && this.recordingMessageId !== null) {
      // The recording goes on with the new microphone (each chunk is a file of its own).
      this.recorder.stop();
      this.recorder = new CallRecorder(track, this.options.chatId, this.recordingMessageId, this.options.myRole);
      this.recorder.start();
    }
    this.emit();
  }

  /** Whether what I say goes out: an unmuted microphone that has not stopped. */
  private microphoneLive(): boolean {
    const track = this.microphone?.getAudioTracks()[0];
    return !!track && track.enabled && track.readyState !== 'ended';
  }

  /** Leaves the call: a private call ends for both (spec §7 hang on the chat socket); in a group only I leave. */
  async hangUp(reason: SessionEnd = 'hungUp'): Promise<void> {
    if (this.over) return;
    this.finish(reason);
    // If the chat socket cannot say it, the closed meeting socket already took me out of the room; the server
    // ends the call once nobody is left in it (or at the ring time), so there is nothing more to do here.
    await hangUpCall(this.options.chatId, this.callId ?? undefined).catch(() => undefined);
  }

  /** Drops everything without telling the server (the call already ended there). */
  dispose(): void {
    if (this.over) return;
    this.over = true;
    this.release();
  }

  private finish(reason: SessionEnd): void {
    if (this.over) return;
    this.over = true;
    this.release();
    this.options.onEnd(reason);
  }

  private release(): void {
    if (this.statsTimer) clearInterval(this.statsTimer);
    if (this.unansweredTimer) clearTimeout(this.unansweredTimer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.lastLeftTimer) clearTimeout(this.lastLeftTimer);
    this.clearDisconnectedTimer();
    this.clearWindowTimer();
    this.statsTimer = this.unansweredTimer = this.retryTimer = this.lastLeftTimer = null;
    this.recorder?.stop();
    this.recorder = null;
    this.connection?.close();
    this.connection = null;
    releaseStream(this.microphone);
    this.camera?.stop();
    this.screen?.stop();
    this.blankVideo?.stop();
  }

  /**
   * Connects to the call with a ticket (the one fetched at start, or a fresh one), or takes over the connection
   * the shell's entry started before this engine loaded.
   */
  private async connect(prefetched?: Promise<MeetingTicket>, started?: Promise<MeetingConnection | null>): Promise<void> {
    if (this.over) return;
    let ticket;
    let early: MeetingConnection | null = null;
    try {
      ticket = await (prefetched ?? callsApi.ticket(this.options.chatId));
      markCallStage('ticket');
      early = (await started) ?? null;
    } catch (error) {
      // No call runs in the chat any more: it ended while we were away.
      if (error instanceof ApiError && (error.status === 404 || error.status === 403)) return this.finish('ended');
      return this.retry();
    }
    if (this.over) {
      early?.close();
      return;
    }
    // A ticket names whatever call runs in the chat now. Coming back after a drop, it may be a new call begun
    // after mine ended: that one is not joined unasked (nor does it inherit my call's recorder or notice).
    const ticketCall = early?.ticket.call_id ?? ticket.call_id;
    if (this.callId !== null && ticketCall !== this.callId) {
      early?.close();
      return this.finish('ended');
    }
    if (early) {
      this.callId = early.ticket.call_id;
      this.reconnectWindowMs = early.ticket.reconnect_seconds * 1000;
      this.outgoingStream = early.outgoing.stream;
      this.connection = early;
      early.attach(this.connectionHandlers());
      // What it saw before may have ended the session or dropped the connection (a retry is under way).
      if (this.connection !== early) return;
      // From now on what goes out is the engine's: my microphone, and my camera or the blank picture.
      void early.sendMedia(this.microphone?.getAudioTracks()[0] ?? null, this.currentVideo(), this.videoOn()).catch(() => undefined);
    } else {
      this.callId = ticket.call_id;
      this.reconnectWindowMs = ticket.reconnect_seconds * 1000;
      this.connection = new MeetingConnection(
        this.options.chatId,
        ticket,
        this.options.myId,
        { audio: this.microphone?.getAudioTracks()[0] ?? null, video: this.currentVideo(), stream: this.outgoingStream, videoOn: this.videoOn() },
        this.connectionHandlers(),
      );
    }
    const connection = this.connection;
    const onState = () => {
      if (this.connection !== connection) return;
      const state = connection.pc.connectionState;
      if (state === 'connected') {
        markCallStage('connected');
        this.clearDisconnectedTimer();
        // Back: a later drop gets a whole window of its own.
        const wasReconnecting = this.reconnecting;
        this.reconnecting = false;
        this.droppedAt = null;
        this.clearWindowTimer();
        if (wasReconnecting) this.emit();
      } else if (state === 'failed') {
        connection.close(false);
        this.retry();
      } else if (state === 'disconnected' && !this.disconnectedTimer) {
        this.disconnectedTimer = setTimeout(() => {
          this.disconnectedTimer = null;
          if (this.connection === connection) this.retry();
        }, DISCONNECTED_GRACE_MS);
      }
    };
    connection.pc.addEventListener('connectionstatechange', onState);
    // A connection taken over may have got there already.
    if (connection.pc.connectionState !== 'new') onState();
    // Still "reconnecting" after a drop until the new connection is up (onState).
    this.emit();
  }

  private connectionHandlers(): MeetingHandlers {
    return {
      onTrack: (streamId, _track, stream) => {
        this.streams.set(streamId, stream);
        this.emit();
      },
      onParticipants: (participants) => this.updateParticipants(participants),
      onVideo: (states) => {
        this.videoStates = states;
        this.emit();
      },
      onReconnecting: (away) => {
        this.away = new Set(away.keys());
        this.checkAlone();
        this.emit();
      },
      onRecord: (messageId) => this.record(messageId),
      onDropped: () => this.retry(),
      onEnd: (reason: MeetingEnd) => this.finish(reason === 'full' ? 'full' : 'ended'),
    };
  }

  /**
   * The socket or the media path dropped: connect again with a fresh ticket, for as long as the server holds my
   * place (`reconnect_seconds` of my last ticket). Before any ticket, for as long as a call rings.
   */
  private retry(): void {
    if (this.over || this.retryTimer) return;
    this.clearDisconnectedTimer();
    this.connection?.close(false);
    this.connection = null;
    this.droppedAt ??= Date.now();
    if (this.windowLeftMs() < 0) return this.finish('failed');
    // Checked again when the window closes, not only at the next retry: a socket that opens but whose media path
    // stays 'new' or 'connecting' (no offer ever comes) would otherwise show "Reconnecting…" for ever.
    if (!this.windowTimer) this.armWindowTimer();
    this.reconnecting = true;
    this.streams.clear();
    this.emit();
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.connect();
    }, config.reconnectBaseMs * 2);
  }

  private updateParticipants(participants: Map<number, string>): void {
    this.participants = participants;
    if (participants.size > 0) {
      this.hadOthers = true;
      // Someone answered: the call no longer waits for an answer.
      if (this.unansweredTimer) clearTimeout(this.unansweredTimer);
      this.unansweredTimer = null;
    }
    if (participants.size > 0 && this.connectedAt === null) this.connectedAt = Date.now();
    this.checkAlone();
    this.emit();
  }

  private hadOthers = false;

  /**
   * Spec §2: the call ends by itself when the last other person leaves. Someone whose connection dropped has not
   * left while the server holds their place (they show as reconnecting), so the call waits for them.
   */
  private checkAlone(): void {
    const alone = () => this.participants.size === 0 && this.away.size === 0;
    if (!alone()) {
      if (this.lastLeftTimer) clearTimeout(this.lastLeftTimer);
      this.lastLeftTimer = null;
      return;
    }
    if (!this.hadOthers || this.lastLeftTimer) return;
    this.lastLeftTimer = setTimeout(() => {
      this.lastLeftTimer = null;
      if (alone()) void this.hangUp('lastLeft');
    }, LAST_LEFT_GRACE_MS);
  }

  private record(messageId: number): void {
    this.recordingMessageId = messageId;
    if (!this.recorded) {
      this.recorded = true;
      this.emit();
    }
    const track = this.microphone?.getAudioTracks()[0];
    if (!track || this.recorder) return;
    this.recorder = new CallRecorder(track, this.options.chatId, messageId, this.options.myRole);
    this.recorder.start();
  }

  private currentVideo(): MediaStreamTrack | null {
    return this.screen ?? this.camera ?? this.blankVideo;
  }

  /** Whether I send a picture (camera or screen) rather than the blank one. */
  private videoOn(): boolean {
    return this.screen !== null || this.camera !== null;
  }

  private async sendVideo(): Promise<void> {
    await this.connection?.replaceVideo(this.currentVideo(), this.videoOn());
    this.emit();
  }

  /** What is left of the reconnect window since the drop (its length is the latest ticket's). */
  private windowLeftMs(): number {
    return (this.droppedAt ?? Date.now()) + (this.reconnectWindowMs ?? config.incomingCallAutoCloseMs) - Date.now();
  }

  private armWindowTimer(): void {
    this.windowTimer = setTimeout(() => {
      this.windowTimer = null;
      if (!this.reconnecting || this.over) return;
      // A ticket since the drop may have brought a longer window.
      if (this.windowLeftMs() >= 0) return this.armWindowTimer();
      this.finish('failed');
    }, Math.max(0, this.windowLeftMs()) + 1);
  }

  private clearWindowTimer(): void {
    if (this.windowTimer) clearTimeout(this.windowTimer);
    this.windowTimer = null;
  }

  private clearDisconnectedTimer(): void {
    if (this.disconnectedTimer) clearTimeout(this.disconnectedTimer);
    this.disconnectedTimer = null;
  }

  private stopScreen(): void {
    const screen = this.screen;
    this.screen = null;
    screen?.stop();
  }

  private preview: { track: MediaStreamTrack; stream: MediaStream } | null = null;

  /** My preview, the same stream object while the track stays (so the <video> is not re-attached every second). */
  private previewStream(): MediaStream | null {
    const video = this.screen ?? this.camera;
    if (!video) return null;
    if (this.preview?.track !== video) this.preview = { track: video, stream: new MediaStream([video]) };
    return this.preview.stream;
  }

  private async sample(): Promise<void> {
    const pc = this.connection?.pc;
    if (!pc) return;
    const streamOwners = new Map<string, number>();
    for (const [userId, streamId] of this.participants) {
      for (const track of this.streams.get(streamId)?.getTracks() ?? []) streamOwners.set(track.id, userId);
    }
    const figures = await pollStats(pc, streamOwners);
    this.localAudioLevel = figures.localAudioLevel;
    this.stats.clear();
    for (const [userId, value] of figures.remotes) this.stats.set(userId, value);
    this.emit();
  }

  private emit(): void {
    if (!this.over) this.options.onChange(this.snapshot());
  }
}
