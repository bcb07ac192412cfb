import { useSyncExternalStore } from 'react';
import { localSettings } from './local';

/** Every unsent text of one person: chat id → text. */
type Drafts = Record<string, string>;

const key = (userId: number) => `drafts.${userId}`;

/** Who shows drafts (the chat list's "Draft:" rows): told whenever one is stored or removed. */
const listeners = new Set<() => void>();
const changed = () => {
  for (const listener of listeners) listener();
};

function load(userId: number): Drafts {
  try {
    const stored: unknown = JSON.parse(localSettings.get(key(userId)) ?? '{}');
    return stored && typeof stored === 'object' && !Array.isArray(stored) ? (stored as Drafts) : {};
  } catch {
    return {};
  }
}

/**
 * What someone typed in a chat and has not sent, kept per signed-in person and chat in this browser's local
 * storage: it is still there after switching chats or reloading, and gone once sent or on signing out.
 */
export const drafts = {
  get(userId: number, chatId: number): string {
    const text = load(userId)[String(chatId)];
    return typeof text === 'string' ? text : '';
  },
  /** Keeps `text` as the chat's draft; blank text removes it. */
  set(userId: number, chatId: number, text: string): void {
    const all = load(userId);
    if (text.trim()) all[String(chatId)] = text;
    else if (String(chatId) in all) delete all[String(chatId)];
    else return;
    if (Object.keys(all).length > 0) localSettings.set(key(userId), JSON.stringify(all));
    else localSettings.remove(key(userId));
    changed();
  },
  /** Signing out: nobody who uses this browser next reads what this person left unsent. */
  clear(userId: number): void {
    localSettings.remove(key(userId));
    changed();
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/** A chat's draft for the signed-in person, kept current as it is stored ('' when none, or nobody is signed in). */
export function useDraftText(userId: number | undefined, chatId: number): string {
  return useSyncExternalStore(drafts.subscribe, () => (userId === undefined ? '' : drafts.get(userId, chatId)));
}
