import { useId } from 'react';
import { useLocation, useNavigate } from '@messenger/router';
import { useTranslation } from 'react-i18next';
import { moveFocusByArrows, unlessGuest, useAuthStore } from '@messenger/shared';
import { RemoteSlot } from '../remotes/RemoteSlot';
import { Remotes } from '../remotes/registry';
import { useSidebarStore, type SidebarTab } from '../layouts/useSidebarStore';
import { SearchBox } from './SearchBox';

type TabId = SidebarTab | 'profile';

const TABS: TabId[] = ['chats', 'calls', 'contacts', 'profile'];

/** Each tab's content comes from the remote that owns it. */
const CONTENT: Record<TabId, { remote: (typeof Remotes)[keyof typeof Remotes]; module: string }> = {
  chats: { remote: Remotes.messenger, module: 'ChatsTab' },
  calls: { remote: Remotes.calls, module: 'CallsTab' },
  contacts: { remote: Remotes.messenger, module: 'ContactsTab' },
  profile: { remote: Remotes.messenger, module: 'ProfileTab' },
};

/** Spec §2 side bar: a title per tab, a search box on all but the profile, and the four tabs. */
export function Sidebar() {
  const { t } = useTranslation('shell');
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const listTab = useSidebarStore((state) => state.tab);
  const setTab = useSidebarStore((state) => state.setTab);
  const current: TabId = pathname === '/profile' ? 'profile' : listTab;
  const panelId = useId();

  const guest = useAuthStore((state) => state.user?.temporary ?? false);

  const select = (tab: TabId) => {
    // Spec §2: guests have the Chats and Profile tabs; the others ask them to sign in.
    if (tab === 'calls' || tab === 'contacts') {
      unlessGuest(guest, () => show(tab));
      return;
    }
    show(tab);
  };

  const show = (tab: TabId) => {
    if (tab === 'profile') {
      navigate('/profile');
      return;
    }
    setTab(tab);
    if (pathname === '/profile') navigate('/');
  };

  return (
    <aside className="shell-sidebar">
      <header className="shell-sidebar-header">
        <h1 className="shell-sidebar-title">{t(`sidebar.tabs.${current}`)}</h1>
        {current !== 'profile' && <SearchBox />}
      </header>
      <div className="shell-sidebar-content" role="tabpanel" id={panelId} aria-label={t(`sidebar.tabs.${current}`)}>
        <RemoteSlot key={current} remote={CONTENT[current].remote} module={CONTENT[current].module} />
      </div>
      <nav className="shell-sidebar-tabs" aria-label={t('sidebar.navigation')}>
        {/* Roving focus: only the selected tab is in the Tab order; the arrows move between tabs, Enter or Space
            opens the focused one (tabs load a remote, so focus alone does not switch). */}
        <div role="tablist" aria-label={t('sidebar.navigation')} tabIndex={-1} onKeyDown={(event) => moveFocusByArrows(event, '[role="tab"]', 'horizontal')}>
          {TABS.map((tab) => (
            <button
              key={tab}
              type="button"
              role="tab"
              tabIndex={tab === current ? 0 : -1}
              aria-selected={tab === current}
              aria-controls={panelId}
              className="shell-tab"
              onClick={() => select(tab)}
            >
              <span aria-hidden="true" className={`shell-tab-icon shell-tab-icon-${tab}`} />
              {t(`sidebar.tabs.${tab}`)}
            </button>
          ))}
        </div>
      </nav>
    </aside>
  );
}
