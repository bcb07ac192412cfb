import { Outlet, useLocation } from '@messenger/router';
import { Role, useAuthStore } from '@messenger/shared';
import { Sidebar } from '../sidebar/Sidebar';
import { AdminBar } from './AdminBar';
import { ConnectionBanner } from './ConnectionBanner';
import { CallLayerSlot } from '../remotes/CallLayerSlot';
import { GlobalShortcuts } from '../shortcuts/GlobalShortcuts';

/**
 * Side bar (400 px) beside the main pane. At 800 px or narrower only one shows (spec §2): the side bar, full
 * width, on `/` and `/profile`; the main pane everywhere else.
 */
export function ChatLayout() {
  const { pathname } = useLocation();
  const role = useAuthStore((state) => state.user?.role ?? 0);
  const listRoute = pathname === '/' || pathname === '/profile';
  return (
    <div className="shell-layout">
      {role >= Role.admin && <AdminBar />}
      <ConnectionBanner />
      <div className="shell-panes" data-focus={listRoute ? 'sidebar' : 'main'}>
        <Sidebar />
        <main className="shell-main">
          <Outlet />
        </main>
      </div>
      <CallLayerSlot />
      <GlobalShortcuts />
    </div>
  );
}
