import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initI18n } from './i18n';
import { App } from './app/App';
import { preloadRemote } from './remotes/RemoteSlot';
import { Remotes } from './remotes/registry';
import { registerServiceWorker } from './notifications/useServiceWorker';
import { api, startSession, stopSession, tokenStorage, watchSessionCookies } from '@messenger/shared';
import { useLoginStore } from './login/useLoginStore';
import { loginErrorText } from './login/login-errors';
import './styles/global.css';

// A meeting tab (an accepted call) fetches its remote while the session is checked, not after: every
// millisecond here is between Accept and the first picture.
if (window.location.pathname.startsWith('/meet/')) void preloadRemote(Remotes.calls, 'MeetingPage');
// When the API client gives up on the session (refresh refused), everything of it goes; the route guard then
// sends the person to /login (spec §8). Set before anything below can ask the server.
api.setSessionEndedHandler((reason) => {
  stopSession();
  // Blocked while signed in: the sign-in page says so (spec §8), rather than a blank phone step.
  useLoginStore.getState().sessionEnded(reason ? (loginErrorText(reason) ?? null) : null);
});
// Another tab that signs out, or in as someone else, takes this tab's session with it (the cookies are shared).
watchSessionCookies();
// A signed-in visit to the chats starts what its first screen needs now, beside the strings rather than after
// them: the person's state (painted from this browser's cache when there is one — issue 13's warm start) and the
// messenger remote's chat list. The session gate shows a failure here and retries it.
const chatPage = /^\/(\d+)?$|^\/profile$/.exec(window.location.pathname);
if (chatPage && tokenStorage.hasSession()) {
  void startSession().catch(() => undefined);
  void preloadRemote(Remotes.messenger, 'ChatsTab');
  if (chatPage[1]) void preloadRemote(Remotes.messenger, 'ChatPage');
}
// The first screen waits for its strings (one small file of the person's language, fetched beside the rest).
void initI18n().then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
registerServiceWorker();
