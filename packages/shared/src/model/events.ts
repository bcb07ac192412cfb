import type { Chat, Contact, Message, PublicUser, Reaction } from './types';

/** What each live event carries in `additional_info` (docs/protocol.md). */
export interface FlowEventMap {
  'chat-created': { chat_id: number; user: PublicUser };
  text: MessageEventInfo;
  image: MessageEventInfo;
  audio: MessageEventInfo;
  video: MessageEventInfo;
  document: MessageEventInfo;
  'chat-read': { chat_id: number; unread_messages: number; unread_mentions: number };
  /** Someone read the chat up to `up_to`, past messages of mine (read receipts). */
  'messages-read': { chat_id: number; reader_id: number; up_to: number };
  'contact-joined': { contact: Contact; user: { id: number } };
  /** Someone reacted to a message, changed or took back their reaction: its reactions as they now are. */
  'message-reactions': { chat_id: number; message_id: number; reactions: Reaction[] };
  /** Its sender edited a message: `message` as it now is. */
  'message-edited': { chat_id: number; message_id: number; message: Message };
  /**
   * A message was deleted (or expired): the chat's latest message now, and my unread counts after it (the
   * server's; the optional fields are absent from events logged before it said them).
   */
  'message-deleted': {
    chat_id: number;
    message_id: number;
    last_message: Message | null;
    /** No message left, the newest deleted by a person (not expired): the preview says "Message deleted". */
    last_message_deleted?: boolean;
    unread_messages?: number;
    unread_mentions?: number;
  };
  'invited-to-chat': { chat_id: number; chat: Chat; user: PublicUser };
  'chat-interval': { chat_id: number; interval: number; user: PublicUser };
  'chat-updated': { chat_id: number; chat: Chat };
  'chat-deleted': { chat_id: number };
  /** Someone calls a chat I am in (docs/api.md, calls). */
  call: { chat_id: number; call_id: number; message_id: number; room_id: string; chat_type: 'private' | 'group'; user: PublicUser; message: Message };
  /**
   * A call of one of my chats ended. A call that was busy at once is new to me here: its message (and who called)
   * comes with it, as with any new message.
   */
  hang: { chat_id: number; call_id: number; room_id: string; reason: 'ended' | 'missed' | 'rejected' | 'busy'; message?: Message; user?: PublicUser };
  /** Someone I see changed their name, username or picture (or I did, in another tab): their profile as I may see it. */
  'user-updated': { user: PublicUser };
  /** The person I called declined. */
  'call-rejected': { chat_id: number; call_id: number; user: PublicUser };
}

export interface MessageEventInfo {
  chat_id: number;
  message_id: number;
  message: Message;
  user: PublicUser;
}

export type FlowEventType = keyof FlowEventMap;

export interface FlowEvent<T extends FlowEventType = FlowEventType> {
  seq: number;
  event_type: T;
  additional_info: FlowEventMap[T];
}

export const MESSAGE_EVENT_TYPES = ['text', 'image', 'audio', 'video', 'document'] as const;

export function isMessageEvent(event: FlowEvent): event is FlowEvent<(typeof MESSAGE_EVENT_TYPES)[number]> {
  return (MESSAGE_EVENT_TYPES as readonly string[]).includes(event.event_type);
}

/**
 * Someone typing in one of my chats: a live signal with no seq, never in the event log (docs/protocol.md). It
 * says "now"; the client forgets it after a few seconds unless another comes.
 */
export interface TypingSignalInfo {
  chat_id: number;
  user: { id: number; name: string; username: string | null };
}

/** A typing signal's payload as the server sends it; anything else is ignored. */
export function isTypingSignal(info: unknown): info is TypingSignalInfo {
  const candidate = info as Partial<TypingSignalInfo> | null;
  return (
    typeof candidate?.chat_id === 'number' &&
    typeof candidate.user?.id === 'number' &&
    typeof candidate.user.name === 'string' &&
    (candidate.user.username === null || typeof candidate.user.username === 'string')
  );
}
