import { create } from 'zustand';

export type SidebarTab = 'chats' | 'calls' | 'contacts';

/** Which of the tabs at `/` is showing (spec §2: Chats, Calls and Contacts all live at the root path). */
export const useSidebarStore = create<{ tab: SidebarTab; setTab(tab: SidebarTab): void }>((set) => ({
  tab: 'chats',
  setTab: (tab) => set({ tab }),
}));
