import { Navigate, Route, Routes } from '@messenger/router';
import { LoginPage } from '../login/LoginPage';
import { ChatLayout } from '../layouts/ChatLayout';
import { AdminLayout } from '../layouts/AdminLayout';
import { RemoteSlot } from '../remotes/RemoteSlot';
import { Remotes } from '../remotes/registry';
import { RequireAdmin, RequireSession } from './guards';
import { HomePane } from './HomePane';
import { ChatRoute } from './ChatRoute';
import { InviteLinkRoute } from './InviteLinkRoute';
import { PrivacyPage } from '../pages/PrivacyPage';

/** Spec §2 routes. Chat and admin layouts need a session; the admin one also role ≥ 2. */
export function AppRoutes() {
  return (
    <Routes>
      <Route path="/login" element={<LoginPage />} />
      <Route path="/link/:code" element={<InviteLinkRoute />} />
      <Route path="/privacy" element={<PrivacyPage />} />
      <Route element={<RequireSession />}>
        {/* The meeting room an accepted call opens in a new tab (spec §4). */}
        <Route path="meet/:roomId" element={<RemoteSlot remote={Remotes.calls} module="MeetingPage" />} />
        <Route element={<ChatLayout />}>
          <Route index element={<HomePane />} />
          <Route path="profile" element={<HomePane />} />
          <Route path=":chatId" element={<ChatRoute />} />
        </Route>
        <Route element={<RequireAdmin />}>
          <Route element={<AdminLayout />}>
            <Route path="statistics" element={<RemoteSlot remote={Remotes.staff} module="StatisticsPage" />} />
            <Route path="employees" element={<RemoteSlot remote={Remotes.staff} module="EmployeesPage" />} />
            <Route path="files" element={<RemoteSlot remote={Remotes.staff} module="FilesPage" />} />
          </Route>
        </Route>
      </Route>
      <Route path="*" element={<Navigate to="/" replace />} />
    </Routes>
  );
}
