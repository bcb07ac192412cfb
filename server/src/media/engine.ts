/**
 * The media engine behind calls: rooms of participants whose audio and video it forwards (an SFU). The calls
 * module speaks only to this interface, so an external SFU (Janus, mediasoup, LiveKit…) can replace the in-process
 * one without touching call logic.
 */

import type { MeetingServerDataMap, MeetingServerEvent } from '@messenger/protocol';

/**
 * Sends one frame (`offer`, `candidate`, `participants`…) to a participant's meeting socket, as the contract says
 * it (packages/protocol, meeting-socket.ts): `data` is the frame's, parsed.
 */
export type MeetingSink = <Event extends MeetingServerEvent>(event: Event, data: MeetingServerDataMap[Event]) => void;

export interface IceServer {
  urls: string | string[];
  username?: string;
  credential?: string;
}

export interface RoomMember {
  readonly userId: number;
  /** The id of the media stream this participant's tracks arrive in at the others. */
  readonly streamId: string;
  /** A frame from the participant's browser: `answer` or `candidate`. */
  handle(event: 'answer' | 'candidate', data: unknown): Promise<void>;
  leave(): void;
}

export class RoomFullError extends Error {}

export interface MediaEngine {
  /** Adds a participant to a room (creating it); the engine then sends them offers. */
  join(roomId: string, userId: number, send: MeetingSink): Promise<RoomMember>;
  /** Who is in a room: user id → stream id. */
  participants(roomId: string): Map<number, string>;
  /** What each participant of a room sends (user id → media kinds): for diagnostics and tests. */
  publishing(roomId: string): Map<number, Array<'audio' | 'video'>>;
  /** Ends a room: every participant's media stops. */
  closeRoom(roomId: string): void;
  close(): void;
  /** A call is starting: an engine that loads lazily starts loading now, so that joining does not wait. */
  warmUp?(): void;
}
