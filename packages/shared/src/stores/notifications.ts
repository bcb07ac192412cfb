import { create } from 'zustand';
import { config } from '../config';

export type NotificationKind = 'message' | 'info' | 'success' | 'warning' | 'error';

/** A notification of the centre (spec §3): a message toast or a status line. */
export interface NotificationItem {
  id: number;
  kind: NotificationKind;
  /** Already translated text. */
  text: string;
  title?: string;
  /** For message toasts: who wrote, in which group, and the chat a click opens. */
  sender?: string;
  group?: string;
  avatar?: string | null;
  chat?: { id: number };
  /** For message toasts: the message shown, so the toast goes when the message is deleted. */
  messageId?: number;
}

export interface NotificationsState {
  items: NotificationItem[];
  push(item: Omit<NotificationItem, 'id'>, dismissAfterMs?: number): number;
  dismiss(id: number): void;
  /** A message was deleted: its toasts go with it (they must not keep showing its text). */
  dismissMessage(messageId: number): void;
  clear(): void;
}

let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();

/**
 * The notifications centre: at most 5 kept, the oldest dropped on a sixth; each dismisses itself after 10 s
 * (message toasts and errors) or 3 s (plain toasts) — spec §4 and §9.
 */
export const useNotificationsStore = create<NotificationsState>((set, get) => ({
  items: [],
  push: (item, dismissAfterMs) => {
    const id = nextId++;
    const after = dismissAfterMs ?? (item.kind === 'message' || item.kind === 'error' ? config.notificationDismissMs : config.toastDismissMs);
    set((state) => {
      const items = [...state.items, { ...item, id }];
      const dropped = items.slice(0, Math.max(0, items.length - config.notificationsKept));
      for (const old of dropped) {
        clearTimeout(timers.get(old.id));
        timers.delete(old.id);
      }
      return { items: items.slice(-config.notificationsKept) };
    });
    timers.set(
      id,
      setTimeout(() => get().dismiss(id), after),
    );
    return id;
  },
  dismiss: (id) => {
    clearTimeout(timers.get(id));
    timers.delete(id);
    set((state) => ({ items: state.items.filter((item) => item.id !== id) }));
  },
  dismissMessage: (messageId) => {
    for (const item of get().items) if (item.messageId === messageId) get().dismiss(item.id);
  },
  clear: () => {
    for (const timer of timers.values()) clearTimeout(timer);
    timers.clear();
    set({ items: [] });
  },
}));
