import { config } from '../config';
import type { ChatMessage, Message } from '../model/types';
import { sessionCache, type CachedSession, type CachedThread } from '../storage/session-cache';
import { tokenStorage, tokenUserId } from '../storage/tokens';
import { useAuthStore } from '../stores/auth';
import { isListed, useChatsStore } from '../stores/chats';
import { useContactsStore } from '../stores/contacts';
import { rememberThreads, rememberedThreads, unexpired, useMessagesStore } from '../stores/messages';
import { useUsersStore } from '../stores/users';

/** How many recently opened chats keep their newest messages in the cache, and how many each. */
const THREADS_KEPT = 10;
const MESSAGES_PER_THREAD = config.historyPageSize;
/** A cache slower than this (a database blocked by another tab) is not waited for: the server answers instead. */
const READ_DEADLINE_MS = 1_000;
/** At most one save in this long: a busy chat changes the stores many times a second. */
const SAVE_EVERY_MS = 500;

/**
 * Paints what the person saw last time — who they are, their chats, contacts, and the people in them — unless
 * the server has answered first or the session is no longer wanted. Returns whether it painted.
 */
export async function paintFromCache(userId: number, stillWanted: () => boolean): Promise<boolean> {
  const record = await Promise.race([
    sessionCache.read(userId),
    new Promise<null>((resolve) => setTimeout(() => resolve(null), READ_DEADLINE_MS)),
  ]);
  if (!record || !stillWanted() || useAuthStore.getState().user || useChatsStore.getState().loaded) return false;
  useUsersStore.getState().upsert(record.users);
  useContactsStore.getState().hydrate(record.contacts);
  useChatsStore.getState().hydrate(record.chats);
  // A row whose latest message expired while the app was closed is not painted at all (spec §4).
  useChatsStore.getState().pruneExpired(Date.now());
  rememberThreads(record.threads);
  // Last: setting the person opens the signed-in screens, which then find everything above in place.
  useAuthStore.getState().setUser(record.me);
  return true;
}

/** Chats opened in this browser, most recent first (their messages are the ones worth keeping). */
const recentChats: number[] = [];

function noteOpened(chatId: number): void {
  const index = recentChats.indexOf(chatId);
  if (index >= 0) recentChats.splice(index, 1);
  recentChats.unshift(chatId);
  recentChats.length = Math.min(recentChats.length, THREADS_KEPT * 2);
}

/** A stored message as the server sent it, without this tab's sending state. */
function asStored({ state: _state, error: _error, ...message }: ChatMessage): Message {
  return message;
}

function cachedThreads(): CachedThread[] {
  const listed = new Set(useChatsStore.getState().chats.map((chat) => chat.id));
  const threads = useMessagesStore.getState().threads;
  const remembered = rememberedThreads();
  const now = Date.now();
  const order = [...recentChats, ...remembered.keys()].filter((chatId, index, all) => all.indexOf(chatId) === index && listed.has(chatId));
  const kept: CachedThread[] = [];
  for (const chatId of order) {
    const thread = threads[chatId];
    // A thread loaded from the server in this tab is the freshest copy; otherwise the one already kept.
    const messages: Message[] | undefined =
      thread?.loaded && thread.cachedIds.length === 0 ? thread.messages.filter((message) => message.state === 'sent').map(asStored) : remembered.get(chatId);
    const current = (messages ?? []).filter(unexpired(now));
    if (current.length === 0) continue;
    kept.push({ chatId, messages: current.slice(-MESSAGES_PER_THREAD) });
    if (kept.length === THREADS_KEPT) break;
  }
  return kept;
}

function snapshot(userId: number): CachedSession | null {
  const me = useAuthStore.getState().user;
  const chatsState = useChatsStore.getState();
  if (!me || me.id !== userId || !chatsState.loaded) return null;
  return {
    userId,
    savedAt: Date.now(),
    me,
    // A row that left the list (its latest message expired) stays out of the painted list too.
    chats: chatsState.chats.filter((chat) => isListed(chat, chatsState.expiredRows)),
    users: Object.values(useUsersStore.getState().profiles),
    contacts: useContactsStore.getState().contacts,
    threads: cachedThreads(),
  };
}

/**
 * Keeps the signed-in person's state in the session cache as it changes (at most every half second, and at once
 * when the tab is hidden, which may be the last chance). Returns the function that stops it.
 */
export function keepSessionCached(userId: number): () => void {
  for (const chatId of [...rememberedThreads().keys()].reverse()) if (!recentChats.includes(chatId)) recentChats.push(chatId);
  const active = useChatsStore.getState().activeChatId;
  if (active !== null) noteOpened(active);
  let timer: ReturnType<typeof setTimeout> | null = null;
  const save = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    // The cookies are every tab's: once another tab has signed out (or someone else in), this one keeps nothing.
    if (tokenUserId(tokenStorage.access) !== userId) return;
    const record = snapshot(userId);
    if (!record) return;
    rememberThreads(record.threads);
    void sessionCache.write(record);
  };
  const schedule = () => {
    timer ??= setTimeout(save, SAVE_EVERY_MS);
  };
  const onHidden = () => {
    if (document.visibilityState === 'hidden' && timer) save();
  };
  const unsubscribers = [
    useChatsStore.subscribe((state, previous) => {
      if (state.activeChatId !== null && state.activeChatId !== previous.activeChatId) noteOpened(state.activeChatId);
      schedule();
    }),
    useMessagesStore.subscribe(schedule),
    useContactsStore.subscribe(schedule),
    useUsersStore.subscribe(schedule),
    useAuthStore.subscribe(schedule),
  ];
  document.addEventListener('visibilitychange', onHidden);
  schedule();
  return () => {
    for (const unsubscribe of unsubscribers) unsubscribe();
    document.removeEventListener('visibilitychange', onHidden);
    if (timer) clearTimeout(timer);
    timer = null;
  };
}

/** Forgets what the cache and this tab remember of the session (sign-out, a session ended, another sign-in). */
export function forgetCachedSession(): Promise<void> {
  recentChats.length = 0;
  return sessionCache.clear();
}
