import { create } from 'zustand';
import { config } from '../config';
import type { ChatMessage, Message, Reaction } from '../model/types';
import { chatsApi } from '../api/endpoints';
import { ApiError } from '../api/errors';
import { withMessageDefaults } from '../model/defaults';

export interface ChatThread {
  /** Oldest first. Stored messages by id, then this tab's unacknowledged ones. */
  messages: ChatMessage[];
  hasMore: boolean;
  loading: boolean;
  loaded: boolean;
  error: string | null;
  /**
   * Ids of the messages painted from the session cache (warm start) and not yet confirmed by the server: the
   * newest page replaces them, so what was deleted meanwhile goes.
   */
  cachedIds: number[];
}

export interface MessagesState {
  threads: Record<number, ChatThread>;
  /**
   * Loads the newest page of a chat (once; later calls are no-ops while loaded). A chat seen on an earlier visit
   * shows its cached messages at once, until the page arrives.
   */
  loadLatest(chatId: number): Promise<void>;
  /**
   * Asks again for the newest page of every chat on screen (the live connection has just started from the chat
   * list's seq: what was stored before that came only in pages, and a page read earlier may miss some of it).
   */
  refreshOpen(): void;
  /** Loads the page before the oldest loaded message. */
  loadOlder(chatId: number): Promise<void>;
  /** A stored message arrived (live event or acknowledgement): add it, or settle the pending copy. */
  receive(message: Message): void;
  addPending(message: ChatMessage): void;
  markFailed(clientId: string, chatId: number, error: string): void;
  markSending(clientId: string, chatId: number): void;
  /** Removes a message that was never sent. */
  discard(clientId: string, chatId: number): void;
  /** Its sender edited a message: the new text, here and in the quotes of the replies to it. */
  edited(message: Message): void;
  /** A message's reactions as they now are. */
  reacted(chatId: number, messageId: number, reactions: Reaction[]): void;
  /** A message was deleted (by its sender, an owner, or its timer). */
  remove(chatId: number, messageId: number): void;
  /** Drops messages whose auto-delete time has passed (the server deletes them too; this is not waiting for it). */
  pruneExpired(now: number): void;
  /**
   * Forgets a chat's messages (I left it or was removed): what was said while I was out is not in the thread, so
   * a chat I come back to loads its newest page again instead of showing the old one followed by a gap.
   */
  forget(chatId: number): void;
  reset(): void;
}

const EMPTY: ChatThread = { messages: [], hasMore: true, loading: false, loaded: false, error: null, cachedIds: [] };

/** The newest messages of chats seen recently, as the session cache holds them: painted when such a chat opens. */
const remembered = new Map<number, Message[]>();

/**
 * Replies quoting one of `gone` (deleted, or expired) show their quote as a deleted message from now on, as the
 * server sends them: the quote never keeps showing what was taken away.
 */
function blankQuotes<T extends Message>(messages: T[], gone: Set<number>): T[] {
  return messages.map((message) =>
    message.reply_to && gone.has(message.reply_to.id) ? { ...message, reply_to: { ...message.reply_to, text: '', file: null } } : message,
  );
}

/** Keeps the cached threads to paint from (the warm start, and each save of the cache after it). */
export function rememberThreads(threads: { chatId: number; messages: Message[] }[]): void {
  remembered.clear();
  for (const thread of threads) remembered.set(thread.chatId, thread.messages);
}

export function rememberedThreads(): ReadonlyMap<number, Message[]> {
  return remembered;
}

export function forgetThreads(): void {
  remembered.clear();
}

/** Whether a message is still to be shown at `now` (spec §4: an expired one leaves the view). */
export const unexpired =
  (now: number) =>
  (message: Pick<Message, 'expires_at'>): boolean =>
    message.expires_at === null || Date.parse(message.expires_at) > now;

/** A thread that shows or is about to show: loaded, loading its first page, or holding a message being sent. */
function isOpen(thread: ChatThread | undefined): boolean {
  return thread !== undefined && (thread.loaded || thread.loading || thread.messages.length > 0);
}

/**
 * Whether a stored message has its place in the thread as loaded: not older than its oldest stored message while
 * older pages are still to come. An edit or a call's outcome for a message further back would otherwise sit alone
 * above a gap, and the next older page (asked for before the oldest message shown) would start below it.
 */
function withinLoaded(thread: ChatThread, message: Message): boolean {
  if (!thread.hasMore) return true;
  const oldest = thread.messages.find((candidate) => candidate.state === 'sent');
  return oldest === undefined || message.id >= oldest.id;
}

function stored(message: Message): ChatMessage {
  return { ...withMessageDefaults(message), state: 'sent' };
}

/** Whether `a` is an older version of the same stored message than `b` (never edited counts as oldest). */
function editedBefore(a: ChatMessage, b: ChatMessage): boolean {
  return (a.edited_at ?? '') < (b.edited_at ?? '');
}

/** Whether `a` is a call's message from before the call ended and `b` the same one telling how it went. */
function outcomeLost(a: ChatMessage, b: ChatMessage): boolean {
  return a.meta?.call_status === undefined && b.meta?.call_status !== undefined;
}

/** Merges messages into a thread: one copy per client id, stored ones ordered by id, pending ones last. */
function merge(existing: ChatMessage[], incoming: ChatMessage[]): ChatMessage[] {
  const byClientId = new Map<string, ChatMessage>();
  for (const message of existing) byClientId.set(message.client_id, message);
  for (const message of incoming) {
    const known = byClientId.get(message.client_id);
    // A stored copy always wins over a pending one, and a later edit over an earlier text (a replayed event, a page
    // loaded before the edit) — never the other way round; nor does a call's message lose the outcome it has.
    if (!known || known.state !== 'sent' || (message.state === 'sent' && !editedBefore(message, known) && !outcomeLost(message, known))) {
      byClientId.set(message.client_id, message);
    }
  }
  const all = [...byClientId.values()];
  const sent = all.filter((message) => message.state === 'sent').sort((a, b) => a.id - b.id);
  const unsent = all.filter((message) => message.state !== 'sent').sort((a, b) => a.created_at.localeCompare(b.created_at));
  return [...sent, ...unsent];
}

/**
 * What live events said about a chat while one of its history pages was on its way: that page may have been read
 * before them, so once it arrives they are applied over it (a deleted message must not come back with it, nor a
 * reaction be undone). Live events are the log in order, so the newest heard is the newest there is, or the next
 * event brings a newer one.
 */
interface HeardWhileLoading {
  deleted: Set<number>;
  reactions: Map<number, Reaction[]>;
}

/** Per chat, one record for each history page on its way. */
const heardWhileLoading = new Map<number, Set<HeardWhileLoading>>();

function applyHeard(messages: ChatMessage[], heard: HeardWhileLoading): ChatMessage[] {
  if (heard.deleted.size === 0 && heard.reactions.size === 0) return messages;
  return messages
    .filter((message) => message.state !== 'sent' || !heard.deleted.has(message.id))
    .map((message) => {
      const reactions = message.state === 'sent' ? heard.reactions.get(message.id) : undefined;
      return reactions ? { ...message, reactions } : message;
    });
}

export const useMessagesStore = create<MessagesState>((set, get) => {
  const update = (chatId: number, change: (thread: ChatThread) => Partial<ChatThread>) =>
    set((state) => {
      const thread = state.threads[chatId] ?? EMPTY;
      return { threads: { ...state.threads, [chatId]: { ...thread, ...change(thread) } } };
    });

  const loadPage = async (chatId: number, beforeId: number | undefined) => {
    update(chatId, () => ({ loading: true, error: null }));
    const heard: HeardWhileLoading = { deleted: new Set(), reactions: new Map() };
    const loads = heardWhileLoading.get(chatId) ?? new Set<HeardWhileLoading>();
    heardWhileLoading.set(chatId, loads.add(heard));
    try {
      const answer = await chatsApi.history(chatId, { pageSize: config.historyPageSize, beforeId });
      const page = { ...answer, messages: applyHeard(answer.messages.map(stored), heard) };
      update(chatId, (thread) => {
        if (beforeId !== undefined) return { messages: merge(thread.messages, page.messages), hasMore: page.has_more, loading: false };
        // The newest page: what the cache painted gives way to it; live messages received meanwhile stay.
        const cached = new Set(thread.cachedIds);
        const kept = cached.size === 0 ? thread.messages : thread.messages.filter((message) => message.state !== 'sent' || !cached.has(message.id));
        // A thread already loaded from the server (this is a refresh) keeps what it knew of older pages.
        const hasMore = thread.loaded && cached.size === 0 ? thread.hasMore || page.has_more : page.has_more;
        return { messages: merge(kept, page.messages), hasMore, loading: false, loaded: true, cachedIds: [] };
      });
    } catch (error) {
      update(chatId, () => ({ loading: false, error: error instanceof ApiError ? error.message : String(error) }));
      throw error;
    } finally {
      loads.delete(heard);
      if (loads.size === 0 && heardWhileLoading.get(chatId) === loads) heardWhileLoading.delete(chatId);
    }
  };

  return {
    threads: {},
    loadLatest: async (chatId) => {
      const thread = get().threads[chatId];
      // A thread still showing only its cached copy (its page failed) asks again.
      if (thread?.loading || (thread?.loaded && thread.cachedIds.length === 0)) return;
      const cached = thread?.loaded ? [] : (remembered.get(chatId) ?? []).filter(unexpired(Date.now()));
      if (cached.length > 0) {
        update(chatId, (current) => ({ messages: merge(current.messages, cached.map(stored)), loaded: true, cachedIds: cached.map((message) => message.id) }));
      }
      await loadPage(chatId, undefined);
    },
    loadOlder: async (chatId) => {
      const thread = get().threads[chatId];
      // Not below a cached copy: older pages join the server's newest one, never stand in for it.
      if (!thread?.loaded || thread.loading || !thread.hasMore || thread.cachedIds.length > 0) return;
      const oldest = thread.messages.find((message) => message.state === 'sent');
      await loadPage(chatId, oldest?.id);
    },
    refreshOpen: () => {
      for (const [chatId, thread] of Object.entries(get().threads)) {
        if (isOpen(thread)) void loadPage(Number(chatId), undefined).catch(() => undefined);
      }
    },
    receive: (message) => {
      // Threads not opened yet load their history when opened; nothing to keep for them now. A thread whose first
      // page is on its way keeps it: that page may have been read before this message was stored (a message sent
      // the moment a chat opens would otherwise stay "Sending…" although the server has it).
      const open = get().threads[message.chat_id];
      if (!isOpen(open) || !withinLoaded(open!, message)) return;
      update(message.chat_id, (thread) => ({ messages: merge(thread.messages, [stored(message)]) }));
    },
    addPending: (message) => update(message.chat_id, (thread) => ({ messages: merge(thread.messages, [message]) })),
    markFailed: (clientId, chatId, error) =>
      update(chatId, (thread) => ({
        messages: thread.messages.map((message) =>
          message.client_id === clientId && message.state !== 'sent' ? { ...message, state: 'failed', error } : message,
        ),
      })),
    markSending: (clientId, chatId) =>
      update(chatId, (thread) => ({
        messages: thread.messages.map((message) =>
          message.client_id === clientId && message.state === 'failed' ? { ...message, state: 'sending', error: undefined } : message,
        ),
      })),
    discard: (clientId, chatId) =>
      update(chatId, (thread) => ({ messages: thread.messages.filter((message) => message.client_id !== clientId) })),
    edited: (message) => {
      // A cached copy of a chat not open now is painted with the new text when it opens.
      const kept = remembered.get(message.chat_id);
      if (kept) remembered.set(message.chat_id, kept.map((candidate) => (candidate.id === message.id ? message : candidate)));
      if (!isOpen(get().threads[message.chat_id])) return;
      update(message.chat_id, (thread) => ({
        // A reply in view quotes the new text even when the message itself is further back than the thread goes.
        messages: (withinLoaded(thread, message) ? merge(thread.messages, [stored(message)]) : thread.messages).map((candidate) =>
          candidate.reply_to?.id === message.id ? { ...candidate, reply_to: { ...candidate.reply_to, text: message.text } } : candidate,
        ),
      }));
    },
    reacted: (chatId, messageId, reactions) => {
      for (const heard of heardWhileLoading.get(chatId) ?? []) heard.reactions.set(messageId, reactions);
      if (!get().threads[chatId]) return;
      update(chatId, (thread) => ({
        messages: thread.messages.map((message) => (message.id === messageId && message.state === 'sent' ? { ...message, reactions } : message)),
      }));
    },
    remove: (chatId, messageId) => {
      // Never painted again from the cache either, nor quoted by the replies to it.
      const gone = new Set([messageId]);
      const kept = remembered.get(chatId);
      if (kept) remembered.set(chatId, blankQuotes(kept.filter((message) => message.id !== messageId), gone));
      for (const heard of heardWhileLoading.get(chatId) ?? []) heard.deleted.add(messageId);
      if (!get().threads[chatId]) return;
      update(chatId, (thread) => ({ messages: blankQuotes(thread.messages.filter((message) => message.id !== messageId), gone) }));
    },
    pruneExpired: (now) => {
      const threads = get().threads;
      const changed = Object.entries(threads).filter(([, thread]) =>
        thread.messages.some((message) => !unexpired(now)(message)),
      );
      if (changed.length === 0) return;
      set((state) => {
        const next = { ...state.threads };
        for (const [chatId, thread] of changed) {
          const expired = new Set(thread.messages.filter((message) => !unexpired(now)(message)).map((message) => message.id));
          next[Number(chatId)] = {
            ...thread,
            messages: blankQuotes(thread.messages.filter(unexpired(now)), expired),
          };
        }
        return { threads: next };
      });
    },
    forget: (chatId) => {
      remembered.delete(chatId);
      set((state) => {
        const { [chatId]: _dropped, ...threads } = state.threads;
        return { threads };
      });
    },
    reset: () => set({ threads: {} }),
  };
});
