import { BrowserRouter } from '@messenger/router';
import { AppRoutes } from './AppRoutes';
import { useThemeOnDocument } from '../theme/useThemeOnDocument';
import { NotificationCenter } from '../notifications/NotificationCenter';
import { ScrollToHash } from './ScrollToHash';
import { EdgeNotice } from './EdgeNotice';
import { GuestSignIn } from './GuestSignIn';
import { useServiceWorker } from '../notifications/useServiceWorker';

function Root() {
  useThemeOnDocument();
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
