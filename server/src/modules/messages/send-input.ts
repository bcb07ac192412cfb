import type { MessageMeta, MessageType, MessageView } from '../chats/model.js';
import { limits } from '@messenger/protocol';

/** Longest message text (spec §9), in characters (code points). */
export const TEXT_MAX = limits.textMax;

export type SendableType = Exclude<MessageType, 'call'>;

/** One send from the chat socket (docs/protocol.md). */
export interface SendInput {
  chat_id: number;
  client_id: string;
  message_type?: SendableType | undefined;
  text?: string | undefined;
  file_path?: string | undefined;
  meta?: MessageMeta | undefined;
  reply_to_id?: number | undefined;
  forward_message_id?: number | undefined;
}

export interface SendResult {
  message: MessageView;
  /** False when this client id was already stored: the original is returned and nothing is sent again. */
  created: boolean;
  /** `message` already serialized, when the writer has it (the acknowledgement is built around it). */
  messageJson?: string | undefined;
}
