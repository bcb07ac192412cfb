import Type, { type Static, type TSchema } from 'typebox';
import { CallEndReason } from './chats.js';
import { Nullable, strict, type Same } from './common.js';

// The meeting socket (`/api/meet/room/{chat_id}/websocket`, docs/protocol.md): call signalling between a
// participant's browser and the server's SFU. Every frame, both ways, is `{event, data}` with `data` a JSON text
// (spec §7); the schemas here say what `data` holds once parsed, by `event`, for each direction.


/** A frame as it travels, both ways: `data` is JSON text, read with JSON.parse by the side that gets it. */
export const MeetingEnvelope = strict({ event: Type.String(), data: Type.String() });
export type MeetingEnvelope = Static<typeof MeetingEnvelope>;

/** A map keyed by user id (a JSON object's keys are text): `{"12": …, "15": …}`. */
const byUser = <T extends TSchema>(value: T) => Type.Record(Type.String({ pattern: '^[1-9][0-9]{0,15}$' }), value, { additionalProperties: false });

/** An SDP offer or answer, as RTCSessionDescription's toJSON gives it. */
const description = <T extends 'offer' | 'answer'>(type: T) => strict({ type: Type.Literal(type), sdp: Type.String() });

/**
 * An ICE candidate (RTCIceCandidateInit), both ways: the fields of RTCIceCandidate's toJSON. A browser says null for
 * what it lacks; the server leaves it out.
 */
export const MeetingCandidate = strict({
  candidate: Type.String(),
  sdpMid: Type.Optional(Nullable(Type.String())),
  sdpMLineIndex: Type.Optional(Nullable(Type.Integer({ minimum: 0 }))),
  usernameFragment: Type.Optional(Nullable(Type.String())),
});
export type MeetingCandidate = Static<typeof MeetingCandidate>;

/** What a browser sends, by `event`: each `data` once parsed. */
export const meetingClientFrames = {
  /** The SDP answer to the server's latest offer. */
  answer: description('answer'),
  /** One of the browser's ICE candidates (sent once the offer is applied). */
  candidate: MeetingCandidate,
  /** The browser's own media stream id, when the socket opens; informational (`user_id` is ignored: the token says who). */
  stream: strict({ stream_id: Type.String(), user_id: Type.Integer() }),
  /** Whether the person sends a picture (camera or screen) or the blank one: when the socket opens, and on every change. */
  video: strict({ on: Type.Boolean() }),
  /** Every 10 s; answered `pong`. */
  ping: strict({}),
};
export type MeetingClientDataMap = { [Event in keyof typeof meetingClientFrames]: Static<(typeof meetingClientFrames)[Event]> };
export type MeetingClientEvent = keyof MeetingClientDataMap;

/** What the server sends, by `event`: each `data` once parsed. */
export const meetingServerFrames = {
  /** An SDP offer: the first one when the person joins, and one after every change of participants. */
  offer: description('offer'),
  /** One of the SFU's ICE candidates. */
  candidate: MeetingCandidate,
  /** Who is in the room: user id → the id of the media stream their tracks arrive in (`u<user id>`). */
  participants: byUser(Type.String()),
  /** Who dropped and whose place is held: user id → seconds left for them to come back (`{}`: nobody). */
  reconnecting: byUser(Type.Integer({ minimum: 0 })),
  /** Everyone's picture: user id → on (camera or screen) or off (the blank picture), for those whose browser said. */
  video: byUser(Type.Boolean()),
  /**
   * The call is recorded: record my audio for the call's message and upload it in chunks. The message is null when
   * the chat's auto-delete took it meanwhile (nothing can then be uploaded for it).
   */
  record_audio: strict({ message_id: Nullable(Type.Integer()) }),
  /** The room is full; the socket closes (4009). */
  full: strict({ message: Type.String() }),
  /**
   * The call has ended (as the chat's `hang` says), or the person left it (`left`, a group's hang-up); the socket
   * closes (1000). No reason when it ended while the person was joining.
   */
  ended: strict({
    reason: Type.Optional(Type.Union([...CallEndReason.anyOf, Type.Literal('left')])),
  }),
  /** A browser's frame could not be read, or is none of meetingClientFrames; the socket stays open. */
  error: strict({ message: Type.String() }),
  /** The answer to `ping`. */
  pong: strict({}),
};
export type MeetingServerDataMap = { [Event in keyof typeof meetingServerFrames]: Static<(typeof meetingServerFrames)[Event]> };
export type MeetingServerEvent = keyof MeetingServerDataMap;

/** A frame with its `data` parsed, as a discriminated union by `event`. */
type Parsed<Map> = { [Event in keyof Map]: { event: Event; data: Map[Event] } }[keyof Map];
export type MeetingClientFrame = Parsed<MeetingClientDataMap>;
export type MeetingServerFrame = Parsed<MeetingServerDataMap>;

/**
 * Every frame a browser may send, with its `data` parsed: what the server checks (the envelope itself, both fields
 * text, is MeetingEnvelope).
 */
export const MeetingClientFrame = Type.Union([
  strict({ event: Type.Literal('answer'), data: meetingClientFrames.answer }),
  strict({ event: Type.Literal('candidate'), data: meetingClientFrames.candidate }),
  strict({ event: Type.Literal('stream'), data: meetingClientFrames.stream }),
  strict({ event: Type.Literal('video'), data: meetingClientFrames.video }),
  strict({ event: Type.Literal('ping'), data: meetingClientFrames.ping }),
]);
// The union and the table say the same frames: neither can gain one the other lacks.
const unionIsTheTable: Same<Static<typeof MeetingClientFrame>, MeetingClientFrame> = true;
void unionIsTheTable;

/** Who sends a frame: the browser (`client`) or the server. */
export type MeetingSender = 'client' | 'server';

/** The schema of a meeting frame's parsed `data`, by its `event` and who sends it, or none if the event is unknown. */
export function meetingFrameSchema(frame: { event?: unknown }, from: MeetingSender): TSchema | undefined {
  const table: Record<string, TSchema> = from === 'client' ? meetingClientFrames : meetingServerFrames;
  const event = String(frame.event);
  return Object.hasOwn(table, event) ? table[event] : undefined;
}
