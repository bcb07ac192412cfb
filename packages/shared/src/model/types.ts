// The app's domain types. They mirror the server's JSON (docs/api.md); wire-to-app mapping lives in api/.
// Those of the domains on the wire contract are its own types (packages/protocol), re-exported.
import type { CallStatus, ChatType, Message } from '@messenger/protocol';

export type { LastSeenPrivacy } from '@messenger/protocol';

/** Oneself, another person as one may see them, their presence, a session's tokens: the contract's (packages/protocol). */
export type { JwtInfo, Me, Presence, PublicUser } from '@messenger/protocol';

export type { Contact } from '@messenger/protocol';

export type { FileInfo, FileTree, FileTreeEntry } from '@messenger/protocol';

/** Messages, chats and their parts: the contract's (packages/protocol). */
export type { CallStatus, Chat, ChatMetadata, ChatType, Message, MessageMeta, MessageType, Reaction, ReplySnapshot } from '@messenger/protocol';
/** How far an outgoing message has got. */
export type SendState = 'sending' | 'sent' | 'failed';

/** A message as the chat view shows it: stored ones, and this tab's own not yet acknowledged. */
export interface ChatMessage extends Omit<Message, 'id'> {
  /** The server id, or a negative placeholder while sending. */
  id: number;
  state: SendState;
  error?: string;
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
  status?: CallStatus;
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

