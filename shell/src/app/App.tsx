import { BrowserRouter } from '@messenger/router';
import { AppRoutes } from './AppRoutes';
import { useThemeOnDocument } from '../theme/useThemeOnDocument';
import { NotificationCenter } from '../notifications/NotificationCenter';
import { useSessionEndRedirect } from './useSessionEndRedirect';
import { ScrollToHash } from './ScrollToHash';
import { EdgeNotice } from './EdgeNotice';
import { GuestSignIn } from './GuestSignIn';
import { useServiceWorker } from '../notifications/useServiceWorker';

function Root() {
  useThemeOnDocument();
  useSessionEndRedirect();
  useServiceWorker();
  return (
    <>
      <ScrollToHash />
      <AppRoutes />
      <NotificationCenter />
      <GuestSignIn />
      <EdgeNotice />
    </>
  );
}

export function App() {
  return (
    <BrowserRouter>
      <Root />
    </BrowserRouter>
  );
}
