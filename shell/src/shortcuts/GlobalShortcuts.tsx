import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from '@messenger/router';
import { Shortcuts, isTextEntry, matchesShortcut, modalOpen } from '@messenger/shared';
import { useSidebarStore } from '../layouts/useSidebarStore';
import { ShortcutsDialog } from './ShortcutsDialog';

/** Where only one pane shows (spec §2): the side bar must be brought back for its search box. */
const ONE_PANE = '(max-width: 800px)';

/**
 * The app-wide keys: Ctrl/⌘+K searches the chats, `?` (outside a text field) or Ctrl/⌘+/ lists every shortcut.
 * Moving between chats (Alt+↑/↓) belongs to the chat list, closing panels to each panel.
 */
export function GlobalShortcuts() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [helpOpen, setHelpOpen] = useState(false);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (modalOpen()) return;
      if (matchesShortcut(event, Shortcuts.search)) {
        event.preventDefault();
        const sidebar = useSidebarStore.getState();
        sidebar.setTab('chats');
        if (pathname === '/profile' || (pathname !== '/' && window.matchMedia(ONE_PANE).matches)) navigate('/');
        sidebar.wantSearchFocus(true);
        return;
      }
      if (matchesShortcut(event, Shortcuts.help) || (matchesShortcut(event, Shortcuts.helpKey) && !isTextEntry(event.target))) {
        event.preventDefault();
        setHelpOpen(true);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [navigate, pathname]);
  return helpOpen ? <ShortcutsDialog onClose={() => setHelpOpen(false)} /> : null;
}
