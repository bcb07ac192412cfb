// The app's domain types. They mirror the server's JSON (docs/api.md); wire-to-app mapping lives in api/.
// Those of the domains on the wire contract are its own types (packages/protocol), re-exported.
import type { FileInfo } from '@messenger/protocol';

export type { LastSeenPrivacy } from '@messenger/protocol';

/** Oneself, another person as one may see them, their presence, a session's tokens: the contract's (packages/protocol). */
export type { JwtInfo, Me, Presence, PublicUser } from '@messenger/protocol';

export type { Contact } from '@messenger/protocol';

export type MessageType = 'text' | 'image' | 'audio' | 'video' | 'document' | 'call';

/** A file as the server knows it (spec §3 upload result: a path): the contract's (packages/protocol). */
export type { FileInfo, FileTree, FileTreeEntry } from '@messenger/protocol';

/** What the sender says about a file: a voice message's length, a picture's size. */
export interface MessageMeta {
  duration_ms?: number;
  width?: number;
  height?: number;
  /** A call's message: how the call went, set by the server when it ends (absent while it runs). */
  call_status?: 'ringing' | 'active' | 'ended' | 'missed' | 'rejected' | 'busy';
  /** A call's message: how long it was connected, once it is over (null when it never was). */
  duration_seconds?: number | null;
}

/** The quoted message of a reply, as it was (its text is '' if it has since been deleted). */
export interface ReplySnapshot {
  id: number;
  sender_id: number;
  type: MessageType;
  text: string;
  file: FileInfo | null;
}

export interface Message {
  id: number;
  chat_id: number;
  sender_id: number;
  client_id: string;
  type: MessageType;
  text: string;
  file_path: string | null;
  file: FileInfo | null;
  meta: MessageMeta;
  reply_to: ReplySnapshot | null;
  forwarded_from: { user_id: number; name: string } | null;
  created_at: string;
  expires_at: string | null;
  /** When its sender last edited the text; null if never. */
  edited_at: string | null;
  /** Each emoji given to it and who gave it, oldest first (one per person). */
  reactions: Reaction[];
  /** The members it mentions by @username (groups only). */
  mentions: number[];
}

export interface Reaction {
  emoji: string;
  user_ids: number[];
}

/** How far an outgoing message has got. */
export type SendState = 'sending' | 'sent' | 'failed';

/** A message as the chat view shows it: stored ones, and this tab's own not yet acknowledged. */
export interface ChatMessage extends Omit<Message, 'id'> {
  /** The server id, or a negative placeholder while sending. */
  id: number;
  state: SendState;
  error?: string;
}

export type ChatType = 'private' | 'group';

export interface Chat {
  id: number;
  chat_type: ChatType;
  is_secret: boolean;
  name: string;
  avatar: string | null;
  chat_avatar: string | null;
  participants: number[];
  owner_id: number | null;
  invite_link: string | null;
  /** The group's join code ('C-' + 10 letters or digits); only its owner sees it. */
  invite_code: string | null;
  interval: number;
  created_at: string;
  last_message: Message | null;
  last_message_at: string | null;
  unread_messages: number;
  /** Unread messages that mention me (the @ marker in the chat list). */
  unread_mentions: number;
  notifications: boolean;
  /** Read receipts: the newest message someone else in the chat has read up to (0: none); mine up to it are read. */
  read_by_others_up_to: number;
  /** No message is left and the newest was deleted by a person (not expired): the preview says so (spec §4). */
  last_message_deleted?: boolean;
}

export interface ChatMetadata {
  id: number;
  chat_id: number;
  interval: number;
}

export interface CallRecord {
  id: number;
  chat_id: number;
  caller_id: number;
  connected: boolean;
  created_at: string;
  chat_name: string;
  chat_avatar: string | null;
  chat_type: ChatType;
  direction: 'outgoing' | 'incoming';
  status?: 'ringing' | 'active' | 'ended' | 'missed' | 'rejected' | 'busy';
  message_id?: number | null;
  /** From the first answer to the end; null when nobody answered or it still runs. */
  duration_seconds?: number | null;
}

/** A call as POST /meet/call answers it. */
export interface CallInfo {
  id: number;
  chat_id: number;
  room_id: string;
  message_id: number | null;
}

/** What joining a call's meeting socket needs (GET /meet/get-token). */
export interface MeetingTicket {
  token: string;
  room_id: string;
  call_id: number;
  message_id: number | null;
  ice_servers: RTCIceServer[];
  ice_transport_policy: RTCIceTransportPolicy;
  expires_in: number;
  /** How long to keep trying to come back after the connection drops; the server holds the place that long. */
  reconnect_seconds: number;
}

/** The statistics screen's figures: the contract's (packages/protocol). */
export type { ManagerStats, TotalStats } from '@messenger/protocol';

/** The employees screen's people, and sign-in details shown once (a password not changed is null): the contract's. */
export type { Credentials, Employee } from '@messenger/protocol';

