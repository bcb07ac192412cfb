import { api } from '../api/client';
import { ApiError } from '../api/errors';
import { authApi, chatsApi, userApi } from '../api/endpoints';
import { eventBus, type ConnectionStatus } from '../events/bus';
import type { FlowClient } from '../events/flow-client';
import { isMessageEvent, isTypingSignal, type FlowEvent } from '../model/events';
import type { JwtInfo } from '../model/types';
import { tokenStorage, tokenUserId } from '../storage/tokens';
import { drafts } from '../storage/drafts';
import { useAuthStore } from '../stores/auth';
import { useChatsStore } from '../stores/chats';
import { useConnectionStore } from '../stores/connection';
import { useContactsStore } from '../stores/contacts';
import { forgetThreads, useMessagesStore } from '../stores/messages';
import { useNotificationsStore } from '../stores/notifications';
import { useUsersStore } from '../stores/users';
import { useTypingStore } from '../stores/typing';
import { isPresence, usePresenceStore } from '../stores/presence';
import { applyContactChange, applyUserUpdated } from '../stores/profile-updates';
import { ServerStrings } from '../rules/server-strings';
import { chatSocket, createFlowClient } from './sockets';
import { restoreOutbox } from './messaging';
import { clearMediaTokens } from '../api/media';
import { Role, SESSION_CACHE_DATABASE, config } from '../config';
import { useCallStore } from '../stores/call';
import { dropPushSubscription, syncPush } from './push';
import type * as WarmStartModule from './warm-start';
import { Backoff } from '../events/backoff';

let flow: FlowClient | null = null;
let starting: Promise<void> | null = null;
let expiryTimer: ReturnType<typeof setInterval> | null = null;

/**
 * Applies an event to the stores first, then tells subscribers (toasts, remotes) — so they read fresh state. The
 * one way a live event reaches the client's state (the server's verify-action test runs it too).
 */
export function applyFlowEvent(event: FlowEvent): void {
  const me = useAuthStore.getState().user;
  if (!me) return;
  useChatsStore.getState().applyEvent(event, me.id);
  if (isMessageEvent(event)) {
    useMessagesStore.getState().receive(event.additional_info.message);
    // Their message is here: they have stopped typing it.
    useTypingStore.getState().stopped(event.additional_info.chat_id, event.additional_info.message.sender_id);
    const active = useChatsStore.getState().activeChatId;
    if (active === event.additional_info.chat_id && event.additional_info.message.sender_id !== me.id && document.visibilityState === 'visible') {
      void useChatsStore.getState().markRead(active).catch(() => undefined);
    }
  }
  if (event.event_type === 'chat-deleted') {
    useMessagesStore.getState().forget((event as FlowEvent<'chat-deleted'>).additional_info.chat_id);
  }
  if (event.event_type === 'message-reactions') {
    const { chat_id, message_id, reactions } = (event as FlowEvent<'message-reactions'>).additional_info;
    useMessagesStore.getState().reacted(chat_id, message_id, reactions);
  }
  if (event.event_type === 'message-edited') {
    useMessagesStore.getState().edited((event as FlowEvent<'message-edited'>).additional_info.message);
  }
  if (event.event_type === 'message-deleted') {
    const { chat_id, message_id } = (event as FlowEvent<'message-deleted'>).additional_info;
    // Admins keep deleted messages in view (spec §4).
    if (me.role < Role.admin) useMessagesStore.getState().remove(chat_id, message_id);
    // A toast never keeps showing what was deleted.
    useNotificationsStore.getState().dismissMessage(message_id);
  }
  if (event.event_type === 'call' || event.event_type === 'hang') {
    // The call's message shows in the chat; once the call is over it carries the outcome (`hang`).
    const message = (event as FlowEvent<'call' | 'hang'>).additional_info.message;
    if (message) useMessagesStore.getState().receive(message);
  }
  if (
    event.event_type === 'call' ||
    event.event_type === 'hang' ||
    event.event_type === 'call-answered' ||
    event.event_type === 'call-rejected' ||
    event.event_type === 'chat-deleted'
  ) {
    useCallStore.getState().applyEvent(event, me.id);
  }
  if (event.event_type === 'user-updated') applyUserUpdated((event as FlowEvent<'user-updated'>).additional_info.user);
  if (event.event_type === 'contact-joined') {
    useContactsStore.getState().upsert((event as FlowEvent<'contact-joined'>).additional_info.contact);
  }
  if (event.event_type === 'contact-added' || event.event_type === 'contact-updated' || event.event_type === 'contact-removed') {
    applyContactChange(event as FlowEvent<'contact-added' | 'contact-updated' | 'contact-removed'>);
  }
  eventBus.emit(event.event_type, event as never);
  eventBus.emit('event', event);
}

/** Reloads what live events keep current after the server asked for a resync. */
async function loadState(): Promise<number> {
  const [seq] = await Promise.all([useChatsStore.getState().load(), useContactsStore.getState().load()]);
  useMessagesStore.getState().reset();
  return seq;
}

/**
 * `loadState` after a resync, until it works: the flow client has moved on to the server's head and holds the
 * events that come meanwhile, so giving up would leave the screen without everything before that head. While
 * it fails (a server restarting), the connection shows as not back yet.
 */
async function reloadAfterResync(stillWanted: () => boolean, connectionStatus: () => ConnectionStatus): Promise<void> {
  const retries = new Backoff(config.reconnectBaseMs, 10_000);
  for (;;) {
    try {
      await loadState();
      if (useConnectionStore.getState().status === 'connecting') useConnectionStore.setState({ status: connectionStatus() });
      return;
    } catch (error) {
      if (!stillWanted()) throw error;
      useConnectionStore.setState({ status: 'connecting' });
      await new Promise((resolve) => setTimeout(resolve, retries.next()));
      if (!stillWanted()) throw error;
    }
  }
}

/** The session cache's code (IndexedDB through idb) in a chunk of its own: the sign-in page does without it. */
type WarmStart = typeof WarmStartModule;
let warmStartModule: Promise<WarmStart> | null = null;
const warmStart = (): Promise<WarmStart> =>
  (warmStartModule ??= import(/* webpackChunkName: "warm-start" */ './warm-start').catch((error: unknown) => {
    warmStartModule = null; // asked again next time (a deploy may have moved the chunk)
    throw error;
  }));

/** Counts sessions: work begun for one that has since stopped (a sign-out mid-load) leaves the stores alone. */
let generation = 0;
let stopCaching: (() => void) | null = null;
let retryTimer: ReturnType<typeof setTimeout> | null = null;
/** Drops a scheduled retry of the start (its timer and its "online" listener). */
let cancelRetry: () => void = () => undefined;
/**
 * Paced retries of a start that failed while the person already sees their (cached) screen: at most 10 s apart,
 * and at once when the browser says it is online again.
 */
const startRetries = new Backoff(config.reconnectBaseMs, 10_000);

/** Who I am, my chats and contacts, then the live connection resuming from the seq the list was read at. */
async function connect(stillWanted: () => boolean): Promise<void> {
  const [user, list] = await Promise.all([userApi.me(), chatsApi.list()]);
  if (user.deleted) throw new ApiError(404, 'no_such_user', ServerStrings.noSuchUser);
  if (!stillWanted()) return;
  useAuthStore.getState().setUser(user);
  const seq = useChatsStore.getState().applyList(list);
  // Notifications with the app closed, if the person allowed them on this browser (not awaited: nothing waits).
  void syncPush();
  // After the person: a guest has no contacts to ask for.
  await useContactsStore.getState().load();
  if (!stillWanted()) return;
  flow?.stop();
  let flowStatus: ConnectionStatus = 'connecting';
  let resyncs = 0;
  flow = createFlowClient({
    onEvent: applyFlowEvent,
    onSignal: (signal) => {
      if (signal.event_type === 'presence' && isPresence(signal.additional_info)) usePresenceStore.getState().apply(signal.additional_info);
      if (signal.event_type !== 'typing' || !isTypingSignal(signal.additional_info)) return;
      useTypingStore.getState().started(signal.additional_info);
      eventBus.emit('typing', signal.additional_info);
    },
    // Events that come while the state reloads wait for it (the flow client holds them).
    onResync: (head) => {
      // A later resync takes over: this one's retries stop (the flow client waits for the latest reload only).
      const mine = ++resyncs;
      return reloadAfterResync(() => stillWanted() && mine === resyncs, () => flowStatus).then(() => eventBus.emit('resync', { seq: head }));
    },
    onStatus: (status) => {
      flowStatus = status;
      useConnectionStore.setState({ status });
      eventBus.emit('status', status);
    },
  });
  flow.start(seq);
  useMessagesStore.getState().refreshOpen();
  restoreOutbox();
  // The next visit paints from what this one keeps (a cache that cannot load costs that warm start, nothing else).
  void warmStart()
    .then(({ keepSessionCached }) => {
      if (!stillWanted()) return;
      stopCaching?.();
      stopCaching = keepSessionCached(user.id);
    })
    .catch(() => undefined);
}

/**
 * Starts the signed-in session. What this browser kept of the person's last visit paints first (issue 13's
 * warm start); the server's state replaces it as soon as it arrives, and the live connection resumes from the
 * seq that state was read at — so nothing between the two is lost or applied twice.
 */
export function startSession(): Promise<void> {
  if (starting) return starting;
  const run = (async () => {
    const session = generation;
    const stillWanted = () => session === generation;
    // Spec §4: messages with an expiry are checked every second and leave the view when their time comes — the
    // chat list too: a chat whose latest message expired leaves it. From the start: a cached screen has them too.
    expiryTimer ??= setInterval(() => {
      const now = Date.now();
      useMessagesStore.getState().pruneExpired(now);
      useChatsStore.getState().pruneExpired(now);
    }, config.expiryCheckMs);
    const userId = tokenUserId(tokenStorage.access);
    // Not awaited before asking the server: both go at once, and whichever comes first paints.
    const painting =
      userId !== null && !useAuthStore.getState().user
        ? warmStart()
            .then(({ paintFromCache }) => paintFromCache(userId, stillWanted))
            .then((painted) => {
              if (painted && stillWanted() && !flow) useConnectionStore.setState({ status: 'connecting' });
              return painted;
            })
            .catch(() => false)
        : Promise.resolve(false);
    try {
      await connect(stillWanted);
      startRetries.reset();
    } catch (error) {
      // Spec §4: a deleted account, or the server saying "no such user", signs the person out.
      if (error instanceof ApiError && error.message === ServerStrings.noSuchUser) api.endSession();
      // The person already sees their screen (cached, or half loaded): keep it, say so, and try again shortly.
      else if (stillWanted() && ((await painting) || useAuthStore.getState().user) && tokenStorage.hasSession()) {
        useConnectionStore.setState({ status: 'offline' });
        const retry = () => {
          cancelRetry();
          if (stillWanted()) void startSession().catch(() => undefined);
        };
        retryTimer = setTimeout(retry, startRetries.next());
        window.addEventListener('online', retry);
        cancelRetry = () => {
          if (retryTimer) clearTimeout(retryTimer);
          retryTimer = null;
          window.removeEventListener('online', retry);
          cancelRetry = () => undefined;
        };
        return;
      }
      throw error;
    } finally {
      // Unless a sign-out (or another start after it) has taken its place meanwhile.
      if (stillWanted()) starting = null;
    }
  })();
  starting = run;
  return run;
}

/** Stores the tokens of a successful sign-in, replacing whatever session was there. */
export function beginSession(tokens: JwtInfo): void {
  stopSession();
  tokenStorage.save(tokens);
  useAuthStore.getState().setHasSession(true);
  tellOtherTabs();
}

/** Tells this browser's other tabs that the sign-in changed (they then follow it: `followSessionCookies`). */
const SESSION_CHANNEL = 'messenger-session';
function tellOtherTabs(): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(SESSION_CHANNEL);
  channel.postMessage('changed');
  channel.close();
}

/**
 * The sign-in lives in cookies every tab of this browser shares: another tab may sign out, or sign in as someone
 * else. Then this tab must not go on showing its person's chats, nor keep their sockets and notifications: it
 * drops the session it shows, and follows the cookies (to the sign-in page, or to the other person's session).
 */
export function followSessionCookies(): void {
  const shown = useAuthStore.getState().user?.id;
  if (shown === undefined) return;
  const holder = tokenUserId(tokenStorage.access);
  if (!tokenStorage.hasSession() || (holder !== null && holder !== shown)) stopSession();
}

/** Checks the cookies when another tab says they changed, when this tab comes back into view, and every few seconds. */
export function watchSessionCookies(): () => void {
  const check = () => followSessionCookies();
  const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(SESSION_CHANNEL);
  channel?.addEventListener('message', check);
  window.addEventListener('focus', check);
  document.addEventListener('visibilitychange', check);
  const timer = setInterval(check, config.sessionCookieCheckMs);
  return () => {
    channel?.close();
    window.removeEventListener('focus', check);
    document.removeEventListener('visibilitychange', check);
    clearInterval(timer);
  };
}

/** Stops live connections and forgets everything of the session in memory. Tokens are the caller's business. */
export function stopSession(): void {
  generation += 1;
  // A start still under way belongs to the session that ended: the next one starts afresh.
  starting = null;
  startRetries.reset();
  cancelRetry();
  stopCaching?.();
  stopCaching = null;
  forgetThreads();
  // What this browser kept of the session goes with it: the next person here must not see it.
  void warmStart()
    .then(({ forgetCachedSession }) => forgetCachedSession())
    .catch(() => {
      // The cache's code could not be had: the whole database goes instead.
      if (typeof indexedDB !== 'undefined') indexedDB.deleteDatabase(SESSION_CACHE_DATABASE);
    });
  flow?.stop();
  flow = null;
  chatSocket.close();
  if (expiryTimer) clearInterval(expiryTimer);
  expiryTimer = null;
  clearMediaTokens();
  useConnectionStore.setState({ status: 'idle' });
  useChatsStore.getState().reset();
  useMessagesStore.getState().reset();
  useContactsStore.getState().reset();
  useUsersStore.getState().reset();
  useNotificationsStore.getState().clear();
  useTypingStore.getState().clear();
  usePresenceStore.getState().clear();
  useCallStore.setState({ incoming: null, active: null, notice: null });
  useAuthStore.getState().setUser(null);
  useAuthStore.getState().setHasSession(tokenStorage.hasSession());
}

/** Signs out: the server forgets this login, the tokens go, the stores empty (spec §4 logout). */
export function signOut(): void {
  const refresh = tokenStorage.refresh;
  if (refresh) void authApi.signOut(refresh);
  void dropPushSubscription();
  const me = useAuthStore.getState().user?.id ?? tokenUserId(tokenStorage.access);
  if (me) drafts.clear(me);
  tokenStorage.clear();
  stopSession();
  tellOtherTabs();
}
