import Type, { type Static, type TSchema } from 'typebox';
import { Nullable, strict } from './common.js';
import { CallEndReason, Chat, ChatType, Message, Reaction } from './chats.js';
import { Contact } from './contacts.js';
import { MESSAGE_EVENT_TYPES } from './limits.js';
import { Presence, PublicUser } from './users.js';

// The live-event socket (`/user/flow`, docs/protocol.md): every frame the server sends on it. Each event's
// payload is strict (`additionalProperties: false`) so a field the contract does not name fails the checks.


const MessageEventInfo = strict({
  chat_id: Type.Integer(),
  message_id: Type.Integer(),
  message: Message,
  /** The sender, as the recipient may see them. */
  user: PublicUser,
});

/** What each event of the per-user log carries in `additional_info`, by `event_type`. */
export const flowEvents = {
  /** A chat of mine was made: a private one (by either side), a group I made or joined, an account merged into mine. */
  'chat-created': strict({ chat_id: Type.Integer(), user: PublicUser, chat: Type.Optional(Chat) }),
  text: MessageEventInfo,
  image: MessageEventInfo,
  audio: MessageEventInfo,
  video: MessageEventInfo,
  document: MessageEventInfo,
  /** I read a chat (in this tab or another): my unread counts of it now. */
  'chat-read': strict({ chat_id: Type.Integer(), unread_messages: Type.Integer(), unread_mentions: Type.Integer() }),
  /** Someone read the chat up to `up_to`, past messages of mine (read receipts). */
  'messages-read': strict({ chat_id: Type.Integer(), reader_id: Type.Integer(), up_to: Type.Integer() }),
  /** Someone I had invited by phone signed up: they are my contact now. */
  'contact-joined': strict({ contact: Contact, user: strict({ id: Type.Integer() }) }),
  /**
   * I added a contact, or renamed one, or typed in the phone of one added otherwise (in any tab): the contact as it
   * now is, and the person's profile as I now see it (with the phone once I typed it in).
   */
  'contact-added': strict({ contact: Contact, user: PublicUser }),
  'contact-updated': strict({ contact: Contact, user: PublicUser }),
  /** I removed a contact (in any tab): their profile as I now see it (without the phone I knew through the contact). */
  'contact-removed': strict({ contact_id: Type.Integer(), user: PublicUser }),
  /** Someone reacted to a message, changed or took back their reaction: its reactions as they now are. */
  'message-reactions': strict({ chat_id: Type.Integer(), message_id: Type.Integer(), reactions: Type.Array(Reaction) }),
  /** Its sender edited a message: `message` as it now is. */
  'message-edited': strict({ chat_id: Type.Integer(), message_id: Type.Integer(), message: Message }),
  /**
   * A message was deleted (or expired): the chat's latest message now, and my unread counts after it. The optional
   * fields are absent from events logged before the server said them.
   */
  'message-deleted': strict({
    chat_id: Type.Integer(),
    message_id: Type.Integer(),
    last_message: Nullable(Message),
    /** No message left, the newest deleted by a person (not expired): the preview says "Message deleted". */
    last_message_deleted: Type.Optional(Type.Boolean()),
    unread_messages: Type.Optional(Type.Integer()),
    unread_mentions: Type.Optional(Type.Integer()),
  }),
  /** Someone added me to a group. */
  'invited-to-chat': strict({ chat_id: Type.Integer(), chat: Chat, user: PublicUser }),
  /** Someone changed a chat's auto-delete interval (seconds, 0 is off). */
  'chat-interval': strict({ chat_id: Type.Integer(), interval: Type.Integer(), user: PublicUser }),
  'chat-updated': strict({ chat_id: Type.Integer(), chat: Chat }),
  /** A chat is gone for me: deleted, or I left or was removed. */
  'chat-deleted': strict({ chat_id: Type.Integer() }),
  /** Someone calls a chat I am in: the call's message comes with it. */
  call: strict({
    chat_id: Type.Integer(),
    call_id: Type.Integer(),
    message_id: Type.Integer(),
    room_id: Type.String(),
    chat_type: ChatType,
    user: PublicUser,
    message: Message,
  }),
  /**
   * A call of one of my chats ended, with its message as it now is (null when the chat's auto-delete took it). A
   * call that was busy at once is new to me here: its message, its id and who called come with it, as with any
   * new message.
   */
  hang: strict({
    chat_id: Type.Integer(),
    call_id: Type.Integer(),
    room_id: Type.String(),
    reason: CallEndReason,
    message: Type.Optional(Nullable(Message)),
    message_id: Type.Optional(Type.Integer()),
    user: Type.Optional(PublicUser),
  }),
  /** Someone I see changed their name, username or picture (or I did, in another tab): their profile as I may see it. */
  'user-updated': strict({ user: PublicUser }),
  /** I joined a call that rang for me (on another tab or device): it stops ringing here. */
  'call-answered': strict({ chat_id: Type.Integer(), call_id: Type.Integer() }),
  /** The person I called declined. */
  'call-rejected': strict({ chat_id: Type.Integer(), call_id: Type.Integer(), user: PublicUser }),
};

export type FlowEventMap = { [Type in keyof typeof flowEvents]: Static<(typeof flowEvents)[Type]> };
export type FlowEventType = keyof FlowEventMap;
export const FLOW_EVENT_TYPES = Object.keys(flowEvents) as FlowEventType[];

/** One event of the per-user log as the socket sends it (and a resume replays it). */
export interface FlowEvent<T extends FlowEventType = FlowEventType> {
  seq: number;
  event_type: T;
  additional_info: FlowEventMap[T];
}

// The message events are named in limits.ts (a constant the client's production code uses, without TypeBox).
const messageEventsAreEvents: readonly FlowEventType[] = MESSAGE_EVENT_TYPES;
void messageEventsAreEvents;

/**
 * Live signals: no seq, never in the log (a lost one is fine, a late one is wrong). `typing`: someone typing in
 * one of my chats, forgotten after a few seconds unless another comes; `presence`: someone went online or offline,
 * as their privacy lets me see it.
 */
export const flowSignals = {
  typing: strict({
    chat_id: Type.Integer(),
    user: strict({ id: Type.Integer(), name: Type.String(), username: Nullable(Type.String()) }),
  }),
  presence: Presence,
};
export type FlowSignalMap = { [Type in keyof typeof flowSignals]: Static<(typeof flowSignals)[Type]> };
export type TypingSignalInfo = FlowSignalMap['typing'];
/** A live signal as the socket sends it: no seq. */
export type FlowSignal = { [Type in keyof FlowSignalMap]: { event_type: Type; additional_info: FlowSignalMap[Type] } }[keyof FlowSignalMap];

/**
 * The socket's own frames: `ready` once the backlog after the client's seq is sent (its seq is the head), `resync`
 * when that seq cannot be resumed (reload state, carry on from this seq), `error` for a frame it could not read.
 */
export const flowControl = {
  ready: strict({ seq: Type.Integer() }),
  resync: strict({ seq: Type.Integer() }),
  error: strict({ message: Type.String() }),
};
export type FlowControlMap = { [Type in keyof typeof flowControl]: Static<(typeof flowControl)[Type]> };

/** The schema of one `/user/flow` frame's `additional_info`, by its kind (an event has a seq), or none if unknown. */
export function flowFrameSchema(frame: { seq?: unknown; event_type?: unknown }): TSchema | undefined {
  const type = String(frame.event_type);
  const table: Record<string, TSchema> = frame.seq === undefined ? { ...flowSignals, ...flowControl } : flowEvents;
  return Object.hasOwn(table, type) ? table[type] : undefined;
}
