import { create } from 'zustand';
import type { ChatMessage } from '@messenger/shared';

/** The chat view's own state: what is being answered, and the message to bring into view and flash. */
export interface ChatUiState {
  /** Per chat: the message the composer is replying to. */
  replyTo: Record<number, ChatMessage | undefined>;
  /** Per chat: the message of mine whose text the composer is editing (instead of writing a new one). */
  editing: Record<number, ChatMessage | undefined>;
  /** A message id the list should scroll to and highlight (reply quote click, search). */
  focus: { chatId: number; messageId: number; nonce: number } | null;
  /**
   * The message whose deletion waits for confirmation. Kept here, not in the message's row: a virtualized row
   * unmounts when it leaves the rendered range (the list follows a new message, the person scrolls), and a
   * confirmation living in it vanished with it.
   */
  deleting: ChatMessage | null;
  /** The message being forwarded (and its author's name), kept here for the same reason. */
  forwarding: { message: ChatMessage; authorName: string } | null;
  /** The message of mine whose readers are shown (read receipts in a group), kept here for the same reason. */
  showingReaders: ChatMessage | null;
  setReplyTo(chatId: number, message: ChatMessage | undefined): void;
  /** Starts editing a message (which ends a reply being written) or, with undefined, stops. */
  setEditing(chatId: number, message: ChatMessage | undefined): void;
  focusMessage(chatId: number, messageId: number): void;
  /** The message asked for by `focusMessage` (this `nonce`) was brought into view, or could not be. */
  focusHandled(nonce: number): void;
  askDelete(message: ChatMessage | null): void;
  askForward(forwarding: { message: ChatMessage; authorName: string } | null): void;
  showReaders(message: ChatMessage | null): void;
  /**
   * The message was deleted (by me elsewhere, its author, a moderator, its timer): the composer stops editing or
   * answering it, and a dialog about it closes. Says which of the composer's two it was.
   */
  forgetMessage(chatId: number, messageId: number): { editing: boolean; replying: boolean };
}

export const useChatUiStore = create<ChatUiState>((set, get) => ({
  replyTo: {},
  editing: {},
  focus: null,
  deleting: null,
  forwarding: null,
  showingReaders: null,
  setReplyTo: (chatId, message) =>
    set((state) => ({ replyTo: { ...state.replyTo, [chatId]: message }, editing: message ? { ...state.editing, [chatId]: undefined } : state.editing })),
  setEditing: (chatId, message) =>
    set((state) => ({ editing: { ...state.editing, [chatId]: message }, replyTo: message ? { ...state.replyTo, [chatId]: undefined } : state.replyTo })),
  focusMessage: (chatId, messageId) => set({ focus: { chatId, messageId, nonce: Date.now() } }),
  focusHandled: (nonce) => set((state) => (state.focus?.nonce === nonce ? { focus: null } : {})),
  askDelete: (message) => set({ deleting: message }),
  askForward: (forwarding) => set({ forwarding }),
  showReaders: (message) => set({ showingReaders: message }),
  forgetMessage: (chatId, messageId) => {
    const state = get();
    const editing = state.editing[chatId]?.id === messageId;
    const replying = state.replyTo[chatId]?.id === messageId;
    const about = (message: ChatMessage | null | undefined) => message?.id === messageId;
    set({
      ...(editing ? { editing: { ...state.editing, [chatId]: undefined } } : {}),
      ...(replying ? { replyTo: { ...state.replyTo, [chatId]: undefined } } : {}),
      ...(about(state.deleting) ? { deleting: null } : {}),
      ...(about(state.forwarding?.message) ? { forwarding: null } : {}),
      ...(about(state.showingReaders) ? { showingReaders: null } : {}),
    });
    return { editing, replying };
  },
}));
