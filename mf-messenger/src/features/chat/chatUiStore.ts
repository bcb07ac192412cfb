import { create } from 'zustand';
import type { ChatMessage } from '@messenger/shared';

/** The chat view's own state: what is being answered, and the message to bring into view and flash. */
export interface ChatUiState {
  /** Per chat: the message the composer is replying to. */
  replyTo: Record<number, ChatMessage | undefined>;
  /** A message id the list should scroll to and highlight (reply quote click, search). */
  focus: { chatId: number; messageId: number; nonce: number } | null;
  setReplyTo(chatId: number, message: ChatMessage | undefined): void;
  focusMessage(chatId: number, messageId: number): void;
}

export const useChatUiStore = create<ChatUiState>((set) => ({
  replyTo: {},
  focus: null,
  setReplyTo: (chatId, message) => set((state) => ({ replyTo: { ...state.replyTo, [chatId]: message } })),
  focusMessage: (chatId, messageId) => set({ focus: { chatId, messageId, nonce: Date.now() } }),
}));
