import { create } from 'zustand';

/**
 * The temporary-login modal (spec §2): guests who reach for something only full accounts have (other tabs,
 * new contact, secret chats) are asked to sign in with their phone instead. The shell shows it.
 */
export const useTemporaryLoginStore = create<{ open: boolean; show(): void; hide(): void }>((set) => ({
  open: false,
  show: () => set({ open: true }),
  hide: () => set({ open: false }),
}));

/** Runs `action` for full accounts; for guests, opens the temporary-login modal instead. */
export function unlessGuest(isGuest: boolean, action: () => void): void {
  if (isGuest) useTemporaryLoginStore.getState().show();
  else action();
}
