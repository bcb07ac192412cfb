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
if (window.location.pathname.startsWith('/meet/')) void preloadRemote(Remotes.calls, 'MeetingPage');
// The first screen waits for its strings (one small file of the person's language, fetched beside the rest).
void initI18n().then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
registerServiceWorker();
