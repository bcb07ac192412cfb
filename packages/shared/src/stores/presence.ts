import { create } from 'zustand';
import type { Presence } from '../model/types';
import { userApi } from '../api/endpoints';

interface PresenceState {
  /** What I may see of each person's presence, as last loaded or signalled. */
  byUser: Record<number, Presence>;
  /** Asks the server (a chat opens, or the connection is back and signals may have been missed). */
  load(userId: number): Promise<void>;
  /** A presence signal came in. */
  apply(presence: Presence): void;
  clear(): void;
}

/** When the last signal about each person came: an answer asked for before it is older, and is dropped. */
const signalledAt = new Map<number, number>();

export const usePresenceStore = create<PresenceState>((set) => ({
  byUser: {},
  load: async (userId) => {
    const asked = performance.now();
    try {
      const presence = await userApi.presence(userId);
      if ((signalledAt.get(userId) ?? -Infinity) < asked) set((state) => ({ byUser: { ...state.byUser, [userId]: presence } }));
    } catch {
      // Unknown is shown as nothing: the header keeps its plain subtitle.
    }
  },
  apply: (presence) => {
    signalledAt.set(presence.user_id, performance.now());
    set((state) => ({ byUser: { ...state.byUser, [presence.user_id]: presence } }));
  },
  clear: () => {
    signalledAt.clear();
    set({ byUser: {} });
  },
}));

/** Whether a signal's payload is a presence (signals are not checked by the server's schemas on the way in). */
export function isPresence(value: unknown): value is Presence {
  const candidate = value as Partial<Presence> | null;
  return typeof candidate?.user_id === 'number' && typeof candidate.status === 'string';
}
