// The app's domain types. They mirror the server's JSON (docs/api.md); wire-to-app mapping lives in api/.
// Those of the domains on the wire contract are its own types (packages/protocol), re-exported.
import type { Message } from '@messenger/protocol';

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

/** A call of the history, a running call, and what joining one needs: the contract's (packages/protocol). */
export type { CallInfo, CallRecord, MeetingTicket } from '@messenger/protocol';

/** The statistics screen's figures: the contract's (packages/protocol). */
export type { ManagerStats, TotalStats } from '@messenger/protocol';

/** The employees screen's people, and sign-in details shown once (a password not changed is null): the contract's. */
export type { Credentials, Employee } from '@messenger/protocol';

