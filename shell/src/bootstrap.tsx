import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initI18n } from './i18n';
import { App } from './app/App';
import { preloadRemote } from './remotes/RemoteSlot';
import { Remotes } from './remotes/registry';
import { registerServiceWorker } from './notifications/useServiceWorker';
import './styles/global.css';

// A meeting tab (an accepted call) fetches its remote while the session is checked, not after: every
// millisecond here is between Accept and the first picture.
if (window.location.pathname.startsWith('/meet/')) preloadRemote(Remotes.calls, 'MeetingPage');
initI18n();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
registerServiceWorker();
