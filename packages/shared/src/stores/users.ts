import { create } from 'zustand';
import type { PublicUser } from '../model/types';
import { userApi } from '../api/endpoints';

export interface UsersState {
  /** Profiles of people met in chats, by id (spec §4: fetched once, cached). */
  profiles: Record<number, PublicUser>;
  upsert(users: PublicUser[]): void;
  /** Fetches the profiles not yet known; concurrent asks for one id share a request. */
  ensure(ids: number[]): Promise<void>;
  reset(): void;
}

const inFlight = new Map<number, Promise<void>>();

export const useUsersStore = create<UsersState>((set, get) => ({
  profiles: {},
  upsert: (users) => {
    if (users.length === 0) return;
    set((state) => ({ profiles: { ...state.profiles, ...Object.fromEntries(users.map((user) => [user.id, user])) } }));
  },
  ensure: async (ids) => {
    const missing = ids.filter((id) => !get().profiles[id]);
    await Promise.all(
      missing.map((id) => {
        let request = inFlight.get(id);
        if (!request) {
          request = userApi
            .profile(id)
            .then((user) => get().upsert([user]))
            .catch(() => undefined) // an unfetchable participant is dropped (spec §8)
            .finally(() => inFlight.delete(id));
          inFlight.set(id, request);
        }
        return request;
      }),
    );
  },
  reset: () => set({ profiles: {} }),
}));
