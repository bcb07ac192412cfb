import Type, { type Static } from 'typebox';
import { Id, Nullable } from './common.js';
import { CallStatus, ChatType, Message } from './chats.js';

/** A call of one's chats as the call history lists it (spec §3 Call), newest first. */
export const CallRecord = Type.Object({
  id: Type.Integer(),
  chat_id: Type.Integer(),
  caller_id: Type.Integer(),
  /** Whether anyone answered. */
  connected: Type.Boolean(),
  status: CallStatus,
  /** The call's own message in its chat (null once that is gone). */
  message_id: Nullable(Type.Integer()),
  /** From the first answer to the end; null when nobody answered or it still runs. */
  duration_seconds: Nullable(Type.Integer()),
  created_at: Type.String(),
  chat_name: Type.String(),
  chat_avatar: Nullable(Type.String()),
  chat_type: ChatType,
  /** From the viewer's side: their own call is outgoing. */
  direction: Type.Union([Type.Literal('outgoing'), Type.Literal('incoming')]),
});
export type CallRecord = Static<typeof CallRecord>;

/** A running call of a chat. */
export const CallInfo = Type.Object({
  id: Type.Integer(),
  chat_id: Type.Integer(),
  room_id: Type.String(),
  message_id: Nullable(Type.Integer()),
});
export type CallInfo = Static<typeof CallInfo>;

/** A STUN or TURN server for the browser (RTCIceServer); TURN with its short-lived credentials. */
export const IceServer = Type.Object({
  urls: Type.Union([Type.String(), Type.Array(Type.String())]),
  username: Type.Optional(Type.String()),
  credential: Type.Optional(Type.String()),
});
export type IceServer = Static<typeof IceServer>;

/** What a browser needs to join a call's media room: a short-lived token for the meeting socket and its ICE setup. */
export const MeetingTicket = Type.Object({
  token: Type.String(),
  room_id: Type.String(),
  call_id: Type.Integer(),
  message_id: Nullable(Type.Integer()),
  ice_servers: Type.Array(IceServer),
  /** `relay` when the server relays every call through TURN. */
  ice_transport_policy: Type.Union([Type.Literal('all'), Type.Literal('relay')]),
  /** Seconds the token is good for. */
  expires_in: Type.Integer(),
  /** How long to keep trying to come back after the connection drops; the server holds the place that long. */
  reconnect_seconds: Type.Integer(),
});
export type MeetingTicket = Static<typeof MeetingTicket>;

export const CallChatBody = Type.Object({ chat_id: Id }, { additionalProperties: false });
/** `token`: spec §7 names it; the bearer token is what authorises the request. */
export const CallChatQuery = Type.Object({ chat_id: Id, token: Type.Optional(Type.String({ maxLength: 2000 })) });
export const RecordingQuery = Type.Object({ chat_id: Id });
export const RecordingBody = Type.Object({ chat_id: Id, enabled: Type.Boolean() }, { additionalProperties: false });

const Recording = Type.Object({ chat_id: Type.Integer(), recording: Type.Boolean() });

/** Calls: starting, declining and joining one, who is in it, the history, and (admins) recording. */
export const callRoutes = {
  history: { method: 'GET', url: '/chat/call/history', response: Type.Object({ calls: Type.Array(CallRecord) }) },
  /** Calls a chat, or joins the call already running there; `message` is the new call's own message. */
  start: {
    method: 'POST',
    url: '/meet/call',
    body: CallChatBody,
    response: Type.Object({ call: CallInfo, joined: Type.Boolean(), busy: Type.Boolean(), message: Type.Optional(Message) }),
  },
  reject: { method: 'POST', url: '/meet/reject', body: CallChatBody, response: Type.Object({ rejected: Type.Boolean() }) },
  ticket: { method: 'GET', url: '/meet/get-token', querystring: CallChatQuery, response: MeetingTicket },
  /** Who is in the call's room: user id → display name. */
  participants: {
    method: 'GET',
    url: '/meet/participants',
    querystring: CallChatQuery,
    response: Type.Object({ participants: Type.Record(Type.String(), Type.String()) }),
  },
  running: {
    method: 'GET',
    url: '/chat/call-id',
    querystring: CallChatQuery,
    response: Type.Object({ call_id: Type.Integer(), room_id: Type.String(), message_id: Nullable(Type.Integer()) }),
  },
  recording: { method: 'GET', url: '/chat/recording', querystring: RecordingQuery, response: Recording },
  setRecording: { method: 'PUT', url: '/chat/recording', body: RecordingBody, response: Recording },
} as const;
