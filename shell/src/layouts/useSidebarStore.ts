import { create } from 'zustand';

export type SidebarTab = 'chats' | 'calls' | 'contacts';

interface SidebarState {
  tab: SidebarTab;
  setTab(tab: SidebarTab): void;
  /** Ctrl/⌘+K asked for the search box: it takes the focus as soon as it is on screen, once. */
  searchFocusWanted: boolean;
  wantSearchFocus(wanted: boolean): void;
}

/** Which of the tabs at `/` is showing (spec §2: Chats, Calls and Contacts all live at the root path). */
export const useSidebarStore = create<SidebarState>((set) => ({
  tab: 'chats',
  setTab: (tab) => set({ tab }),
  searchFocusWanted: false,
  wantSearchFocus: (wanted) => set({ searchFocusWanted: wanted }),
}));
