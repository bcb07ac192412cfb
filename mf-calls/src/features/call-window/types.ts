// The contract between the call engine (engine/, WebRTC and the meeting socket) and the call UI (call-window/,
// incoming/): the UI only renders these values and calls these functions.

/** One other person in the call. */
export interface RemoteParticipant {
  userId: number;
  /** Display name (contact alias, else profile name…), already resolved. */
  name: string;
  /** Stored avatar path (for <Avatar path>), if any. */
  avatar: string | null;
  /** Their media, once it arrives (audio and/or video tracks). */
  stream: MediaStream | null;
  /** Decoded video frames per second, polled every second (spec §9); 1 or less shows the avatar instead. */
  frameRate: number;
  /** Loudness 0–100 of their audio (for a speaking indicator). */
  audioLevel: number;
  /** Their connection dropped and they are coming back: the tile shows their avatar and "Reconnecting…". */
  reconnecting: boolean;
  /**
   * They say their camera (or screen) is off: the tile shows their avatar, steadily, whatever the blank picture's
   * frame rate. Without a word from them, the frame rate decides (spec §9).
   */
  videoOff: boolean;
}

export interface CallViewState {
  /** The chat's display name (person or group). */
  title: string;
  chatType: 'private' | 'group';
  /** 'ringing': we called, nobody is here yet; 'connecting': joining; 'active': at least one other person. */
  phase: 'ringing' | 'connecting' | 'active' | 'reconnecting';
  /** When the first other person arrived (ms since the epoch); the header timer counts from it. */
  connectedAt: number | null;
  /** Everyone in the call including me (the header count, spec §2). */
  participantCount: number;
  remotes: RemoteParticipant[];
  /** My own camera (or screen) preview. */
  localStream: MediaStream | null;
  /** My microphone loudness 0–100 (the audio level meter of spec §2). */
  localAudioLevel: number;
  muted: boolean;
  cameraOn: boolean;
  screenSharing: boolean;
  /** The call is recorded (the server asked this browser to record): the header says so to everyone in it. */
  recorded: boolean;
  /** Screen sharing is hidden on mobile (spec §2). */
  canShareScreen: boolean;
}

export interface CallActions {
  toggleMute(): void;
  toggleCamera(): void;
  toggleScreenShare(): void;
  hangUp(): void;
}

/** The incoming call the modal offers to accept or reject. */
export interface IncomingCallView {
  chatId: number;
  title: string;
  avatar: string | null;
  chatType: 'private' | 'group';
  /** Who is calling (for groups: "Anna is calling the group …"). */
  callerName: string;
}
