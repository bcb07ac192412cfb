import { Outlet } from '@messenger/router';
import { AdminBar } from './AdminBar';
import { CallLayerSlot } from '../remotes/CallLayerSlot';

/** Staff screens: the admin bar over a full-width page. */
export function AdminLayout() {
  return (
    <div className="shell-layout">
      <AdminBar />
      <main className="shell-admin-main">
        <Outlet />
      </main>
      {/* A call goes on while an admin looks at the staff pages. */}
      <CallLayerSlot />
    </div>
  );
}
