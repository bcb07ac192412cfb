import { Outlet } from 'react-router-dom';
import { AdminBar } from './AdminBar';

/** Staff screens: the admin bar over a full-width page. */
export function AdminLayout() {
  return (
    <div className="shell-layout">
      <AdminBar />
      <main className="shell-admin-main">
        <Outlet />
      </main>
    </div>
  );
}
