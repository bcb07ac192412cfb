import { create } from 'zustand';
import type { Me } from '../model/types';
import { tokenStorage } from '../storage/tokens';

export interface AuthState {
  /** The signed-in person, once loaded. */
  user: Me | null;
  /** Whether tokens are stored; decided synchronously at load so the route guard never flickers. */
  hasSession: boolean;
  setUser(user: Me | null): void;
  setHasSession(hasSession: boolean): void;
}

export const useAuthStore = create<AuthState>((set) => ({
  user: null,
  hasSession: tokenStorage.hasSession(),
  setUser: (user) => set({ user }),
  setHasSession: (hasSession) => set({ hasSession }),
}));
