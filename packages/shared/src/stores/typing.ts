import { create } from 'zustand';
import type { TypingSignalInfo } from '../model/events';

/** How long a typing signal is shown: the typist's client sends one every 3 s, so two lost in a row end it. */
export const TYPING_SHOWN_MS = 6_000;

export interface Typist {
  id: number;
  name: string;
  username: string | null;
  /** When this person counts as no longer typing, unless another signal comes (ms since the epoch). */
  until: number;
}

interface TypingState {
  /** Who is typing, per chat, in the order they started. */
  byChat: Record<number, Typist[]>;
  /** A typing signal came in. */
  started(info: TypingSignalInfo, now?: number): void;
  /** Their message arrived (or they left the chat): they are not typing any more. */
  stopped(chatId: number, userId: number): void;
  /** Forgets signals whose time is over. */
  expire(now?: number): void;
  clear(): void;
}

let expiryTimer: ReturnType<typeof setTimeout> | null = null;

/** Checks again when the soonest signal runs out, so an indicator disappears on time without a steady timer. */
function scheduleExpiry(byChat: Record<number, Typist[]>, now: number): void {
  if (expiryTimer) clearTimeout(expiryTimer);
  expiryTimer = null;
  const soonest = Math.min(...Object.values(byChat).flatMap((typists) => typists.map((typist) => typist.until)));
  if (!Number.isFinite(soonest)) return;
  expiryTimer = setTimeout(() => useTypingStore.getState().expire(), Math.max(0, soonest - now) + 50);
}

function without(byChat: Record<number, Typist[]>, chatId: number, keep: (typist: Typist) => boolean): Record<number, Typist[]> {
  const left = (byChat[chatId] ?? []).filter(keep);
  const next = { ...byChat };
  if (left.length > 0) next[chatId] = left;
  else delete next[chatId];
  return next;
}

/** Who is typing where (live signals, never stored): fed by the session, read by the chat header and list. */
export const useTypingStore = create<TypingState>((set, get) => ({
  byChat: {},
  started(info, now = Date.now()) {
    const typist: Typist = { id: info.user.id, name: info.user.name, username: info.user.username, until: now + TYPING_SHOWN_MS };
    const current = get().byChat[info.chat_id] ?? [];
    const known = current.some((other) => other.id === typist.id);
    const typists = known ? current.map((other) => (other.id === typist.id ? typist : other)) : [...current, typist];
    const byChat = { ...get().byChat, [info.chat_id]: typists };
    set({ byChat });
    scheduleExpiry(byChat, now);
  },
  stopped(chatId, userId) {
    if (!get().byChat[chatId]?.some((typist) => typist.id === userId)) return;
    set({ byChat: without(get().byChat, chatId, (typist) => typist.id !== userId) });
  },
  expire(now = Date.now()) {
    let byChat = get().byChat;
    for (const chatId of Object.keys(byChat).map(Number)) byChat = without(byChat, chatId, (typist) => typist.until > now);
    set({ byChat });
    scheduleExpiry(byChat, now);
  },
  clear() {
    if (expiryTimer) clearTimeout(expiryTimer);
    expiryTimer = null;
    set({ byChat: {} });
  },
}));
