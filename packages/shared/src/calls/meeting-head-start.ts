import { ApiClient } from '../api/client';
import type { MeetingTicket } from '../model/types';
import { acquireCallMedia, releaseStream, type MediaAccessError } from '../media/devices';
import { msUntilExpiry, tokenStorage, tokenUserId } from '../storage/tokens';
import { MeetingConnection } from './meeting-connection';
import { takeHandedMeetingTicket, withdrawMeetingTicket } from './meeting-ticket-handoff';
import { markCallStage } from './stages';

// A meeting tab (an accepted call, `/meet/{room}?chat={id}`) spends its first few hundred milliseconds loading the
// shell, the shared packages and the calls remote. Joining the call needs none of that: the camera and
// microphone, the meeting ticket, the meeting socket and the peer connection with the SFU are browser APIs. So
// the shell's entry starts them before module federation loads anything, and the calls engine takes the
// connection over when it starts (what happened meanwhile waits for it, see MeetingConnection.attach).
// This module is bundled into the shell's entry chunk as well as into the shared package, so the two copies meet
// through one property of `window`, never through module state, and it imports nothing that is shared.

/** What the head start began for one chat's call; each part settles on its own. */
export interface MeetingHeadStart {
  chatId: number;
  /** The call's microphone and camera (as `acquireCallMedia(true)` gives them), or its refusal. */
  media: Promise<{ stream: MediaStream; cameraError: MediaAccessError | null }>;
  /** The meeting ticket, or null when it could not be had here (the engine then asks the usual way). */
  ticket: Promise<MeetingTicket | null>;
  /**
   * The connection with the call, started with that ticket (with the microphone allowed already, before the
   * devices, which join it when they are up), or null where the engine connects itself (no ticket, a ticket for
   * another room than the page's, a refused microphone). It may have closed already (the call ended meanwhile):
   * what it saw waits for `attach`.
   */
  connection: Promise<MeetingConnection | null>;
}

interface Pending extends MeetingHeadStart {
  /** Stops what nobody took: the devices, and the connection — leaving the call, or holding the place as a drop. */
  discard(leaving: boolean): void;
}

const KEY = Symbol.for('messenger.meeting-head-start');
/** A head start nobody takes by then (the calls remote failed to load, the call was over) is stopped. */
export const HEAD_START_UNCLAIMED_MS = 20_000;

type Holder = { [KEY]?: Pending };

/** The room and chat of a meeting page's address (`/meet/{room}?chat={id}`), or null for any other page. */
export function meetingAddress(location: Pick<Location, 'pathname' | 'search'>): { roomId: string; chatId: number } | null {
  const match = /^\/meet\/([^/]+)$/.exec(location.pathname);
  if (!match) return null;
  const chatId = Number(new URLSearchParams(location.search).get('chat'));
  if (!Number.isInteger(chatId) || chatId <= 0) return null;
  return { roomId: decodeURIComponent(match[1]!), chatId };
}

/**
 * Called by the shell's entry before anything else: on a meeting page of a signed-in person, asks for the
 * devices and the ticket at once (or takes the ticket its opener handed over), and connects as soon as the ticket
 * is there — or once the devices are up too, unless the microphone is allowed already. Does nothing elsewhere, or
 * without a usable access token (the engine then does it all once the session is refreshed).
 */
export function beginMeetingHeadStart(target: Holder = window as unknown as Holder): void {
  const address = meetingAddress(window.location);
  const token = tokenStorage.access;
  const myId = tokenUserId(token);
  // The tab that accepted the call may have handed its ticket over (fetched while the call rang): taken (and so
  // removed) whatever happens next, and only if it is this page's and this person's.
  let handed: MeetingTicket | null = null;
  if (address && myId !== null) handed = takeHandedMeetingTicket(address.chatId, address.roomId, myId);
  else withdrawMeetingTicket();
  // An access token about to expire would be refused; the engine's API client refreshes it first.
  if (address === null || myId === null || msUntilExpiry(token) < 30_000 || !navigator.mediaDevices?.getUserMedia) return;

  const { chatId, roomId } = address;
  markCallStage('head-start');
  const media = acquireCallMedia(true);
  media.then(() => markCallStage('media')).catch(() => undefined); // the engine sees a refusal when it takes the media
  // Without a handed ticket it is fetched here; never refreshing: the app refreshes once it has loaded, and two
  // refreshes at once would spend one refresh token.
  const ticket = handed
    ? Promise.resolve(handed)
    : new ApiClient().request<MeetingTicket>('GET', '/meet/get-token', { query: { chat_id: chatId }, refresh: false }).catch(() => null);
  void ticket.then((granted) => granted && markCallStage('ticket'));

  let discarded = false;
  // Joining the room counts as answering (the server marks the call answered once two are in it). So the
  // connection starts with the ticket, before the devices, only when the microphone is allowed already: the other
  // side's picture needs only the connection, and the devices (~100 ms in the call set-up bench) join it when they
  // are up. Otherwise it waits for them: someone still at the browser's prompt has not answered, and a refused
  // microphone never joins (the engine ends the call its way, as before).
  const mayJoin = microphoneAllowed().then((allowed) => allowed || media.then(() => true, () => false));
  const connection = Promise.all([ticket, mayJoin]).then(([granted, allowed]) => {
    // Only this page's call: an old meeting link must not join whatever call runs in the chat now (the page
    // then says the call is over, as it did before there was a head start).
    if (discarded || !granted || granted.room_id !== roomId || !allowed) return null;
    // No picture until the camera is up: the others show my avatar meanwhile.
    const started = new MeetingConnection(chatId, granted, myId, { audio: null, video: null, stream: new MediaStream(), videoOn: false });
    media.then(
      ({ stream }) => {
        // Once the engine has the connection, it alone says what goes out (a blank picture without a camera).
        if (started.isAttached) return;
        const video = stream.getVideoTracks()[0] ?? null;
        void started.sendMedia(stream.getAudioTracks()[0] ?? null, video, video !== null).catch(() => undefined);
      },
      () => undefined, // no microphone: the engine hangs up and closes the connection
    );
    return started;
  });

  const pending: Pending = {
    chatId,
    media,
    ticket,
    connection,
    discard(leaving) {
      discarded = true;
      void connection.then((started) => started?.close(leaving));
      void media.then(({ stream }) => releaseStream(stream)).catch(() => undefined);
    },
  };
  target[KEY] = pending;
  setTimeout(() => {
    if (target[KEY] !== pending) return;
    delete target[KEY];
    // The engine may yet come (a very slow load): the place is held, as after a drop.
    pending.discard(false);
  }, HEAD_START_UNCLAIMED_MS);
}

/** Whether the page may use the microphone without asking (false where the browser cannot say). */
function microphoneAllowed(): Promise<boolean> {
  const query = navigator.permissions?.query({ name: 'microphone' as PermissionName });
  return query ? query.then((status) => status.state === 'granted', () => false) : Promise.resolve(false);
}

/** The calls engine takes the head start of its chat's call, once: a second caller gets null and starts its own. */
export function takeMeetingHeadStart(chatId: number, target: Holder = window as unknown as Holder): MeetingHeadStart | null {
  const pending = target[KEY];
  if (!pending || pending.chatId !== chatId) return null;
  delete target[KEY];
  return { chatId: pending.chatId, media: pending.media, ticket: pending.ticket, connection: pending.connection };
}

/** The meeting page found no call to join here: stop the devices, and leave with the connection the head start began. */
export function discardMeetingHeadStart(target: Holder = window as unknown as Holder): void {
  const pending = target[KEY];
  if (!pending) return;
  delete target[KEY];
  pending.discard(true);
}
