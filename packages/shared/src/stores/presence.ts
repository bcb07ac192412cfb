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

export const usePresenceStore = create<PresenceState>((set, get) => ({
  byUser: {},
  load: async (userId) => {
    try {
      get().apply(await userApi.presence(userId));
    } catch {
      // Unknown is shown as nothing: the header keeps its plain subtitle.
    }
  },
  apply: (presence) => set((state) => ({ byUser: { ...state.byUser, [presence.user_id]: presence } })),
  clear: () => set({ byUser: {} }),
}));

/** Whether a signal's payload is a presence (signals are not checked by the server's schemas on the way in). */
export function isPresence(value: unknown): value is Presence {
  const candidate = value as Partial<Presence> | null;
  return typeof candidate?.user_id === 'number' && typeof candidate.status === 'string';
}
