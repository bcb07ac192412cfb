import { create } from 'zustand';
import { callsApi } from '../api/endpoints';
import { ApiError } from '../api/errors';
import { config } from '../config';
import { i18n } from '../i18n';
import { useNotificationsStore } from './notifications';
import { useChatsStore } from './chats';
import { useMessagesStore } from './messages';
import { handOverMeetingTicket, withdrawMeetingTicket } from '../calls/meeting-ticket-handoff';
import { tokenStorage, tokenUserId } from '../storage/tokens';
import type { FlowEvent } from '../model/events';
import type { MeetingTicket, PublicUser } from '../model/types';

/** A call someone else started in one of my chats, offered by the incoming call modal. */
export interface IncomingCall {
  chatId: number;
  callId: number;
  roomId: string;
  chatType: 'private' | 'group';
  caller: PublicUser;
}

/** The call this tab takes part in: the call window shows it. */
export interface ActiveCall {
  chatId: number;
  callId: number;
  roomId: string;
  /** I started it and nobody has answered yet (the ring-back plays). */
  outgoing: boolean;
}

export type CallNoticeKind = 'rejected' | 'busy' | 'alreadyInCall' | 'mediaFailed' | 'screenShareFailed' | 'failed';

export interface CallNotice {
  kind: CallNoticeKind;
  /** The browser's own words, for media failures. */
  detail?: string;
  id: number;
}

export interface CallState {
  incoming: IncomingCall | null;
  active: ActiveCall | null;
  notice: CallNotice | null;
  /** Calls a chat (or joins its running call) in this tab. */
  startCall(chatId: number): Promise<void>;
  /** Accepting opens the meeting room in a new tab (spec §4); this tab forgets the call. */
  acceptIncoming(): void;
  rejectIncoming(): Promise<void>;
  /** The modal closed by itself (nobody answered here). */
  dismissIncoming(): void;
  /** This tab's call is over (hung up, ended, failed). */
  endActive(): void;
  /** The first other person arrived. */
  markAnswered(): void;
  /** Joins the call of a meeting page (`/meet/{room_id}`). */
  joinRoom(chatId: number, callId: number, roomId: string): void;
  showNotice(kind: CallNoticeKind, detail?: string): void;
  clearNotice(): void;
  /** Applies `call`, `hang`, `call-answered`, `call-rejected` and `chat-deleted` from the live connection. */
  applyEvent(event: FlowEvent, myId: number): void;
}

let noticeTimer: ReturnType<typeof setTimeout> | null = null;
let nextNotice = 1;

/**
 * The ticket of the call ringing here, fetched while it rings: accepting hands it to the meeting tab
 * (calls/meeting-ticket-handoff.ts), which then connects without asking for one.
 */
let ringingTicket: { callId: number; ticket: MeetingTicket; fetchedAt: number } | null = null;

function fetchRingingTicket(chatId: number, callId: number, ringing: () => IncomingCall | null): void {
  ringingTicket = null;
  // Only a tab someone is looking at answers; the others (and every member of a big group's other tabs) need none.
  if (typeof document !== 'undefined' && document.visibilityState !== 'visible') return;
  const fetchedAt = Date.now();
  callsApi.ticket(chatId).then(
    (ticket) => {
      if (ringing()?.callId === callId) ringingTicket = { callId, ticket, fetchedAt };
    },
    () => undefined, // the meeting tab asks for its own
  );
}

/** The path of a call's meeting room, a page of our own (spec §4: accepting opens it in a new tab). */
export function meetingPath(roomId: string, chatId: number): string {
  return `/meet/${encodeURIComponent(roomId)}?chat=${chatId}`;
}

/** One store for calls, shared by the shell (events), the messenger (call buttons) and mf-calls (the UI). */
export const useCallStore = create<CallState>((set, get) => ({
  incoming: null,
  active: null,
  notice: null,
  startCall: async (chatId) => {
    if (get().active) {
      get().showNotice('alreadyInCall');
      return;
    }
    try {
      const started = await callsApi.start(chatId);
      if (started.message) {
        // My own call's message shows in the chat at once, as a sent text does.
        useMessagesStore.getState().receive(started.message);
        useChatsStore.getState().noteOwnMessage(started.message);
      }
      if (started.busy) {
        get().showNotice('busy');
        return;
      }
      set({ active: { chatId, callId: started.call.id, roomId: started.call.room_id, outgoing: !started.joined } });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'already_in_call') get().showNotice('alreadyInCall');
      else throw error;
    }
  },
  acceptIncoming: () => {
    const incoming = get().incoming;
    if (!incoming) return;
    set({ incoming: null });
    const prefetched = ringingTicket?.callId === incoming.callId ? ringingTicket : null;
    ringingTicket = null;
    const myId = tokenUserId(tokenStorage.access);
    if (prefetched && myId !== null) handOverMeetingTicket(incoming.chatId, myId, prefetched.ticket, prefetched.fetchedAt);
    let opened: Window | null = null;
    try {
      opened = window.open(meetingPath(incoming.roomId, incoming.chatId), '_blank');
    } finally {
      // The new tab has its copy of this tab's sessionStorage already.
      withdrawMeetingTicket();
    }
    if (opened) return;
    // A browser that refuses the tab (pop-ups blocked for the site): the call has not been answered, so it rings
    // on here, with its ticket, and the person is told what to change. Before, the ringing just went away.
    ringingTicket = prefetched;
    set({ incoming });
    // Two sentences to act on while it rings: shown as long as a message is, not as a 3 s toast.
    useNotificationsStore.getState().push({ kind: 'warning', text: i18n.t('common:media.callWindowBlocked') }, config.notificationDismissMs);
  },
  rejectIncoming: async () => {
    const incoming = get().incoming;
    if (!incoming) return;
    set({ incoming: null });
    await callsApi.reject(incoming.chatId);
  },
  dismissIncoming: () => set({ incoming: null }),
  endActive: () => set({ active: null }),
  markAnswered: () => {
    const active = get().active;
    if (active?.outgoing) set({ active: { ...active, outgoing: false } });
  },
  joinRoom: (chatId, callId, roomId) => set({ active: { chatId, callId, roomId, outgoing: false }, incoming: null }),
  showNotice: (kind, detail) => {
    if (noticeTimer) clearTimeout(noticeTimer);
    set({ notice: { kind, id: nextNotice++, ...(detail ? { detail } : {}) } });
    noticeTimer = setTimeout(() => set({ notice: null }), config.callRejectedNoticeMs);
  },
  clearNotice: () => {
    if (noticeTimer) clearTimeout(noticeTimer);
    set({ notice: null });
  },
  applyEvent: (event, myId) => {
    if (event.event_type === 'call') {
      const info = (event as FlowEvent<'call'>).additional_info;
      // Not while this tab is in a call (spec §4: only with no call window open): a group call rings past the
      // server's busy rule, and a modal kept hidden would ring the moment mine ends, its 60 s counted from then.
      if (info.user.id === myId || get().active) return;
      set({ incoming: { chatId: info.chat_id, callId: info.call_id, roomId: info.room_id, chatType: info.chat_type, caller: info.user } });
      fetchRingingTicket(info.chat_id, info.call_id, () => get().incoming);
    } else if (event.event_type === 'hang') {
      const info = (event as FlowEvent<'hang'>).additional_info;
      if (get().incoming?.callId === info.call_id) set({ incoming: null });
      if (get().active?.callId === info.call_id) {
        set({ active: null });
        if (info.reason === 'busy') get().showNotice('busy');
      }
    } else if (event.event_type === 'chat-deleted') {
      // Out of the chat (deleted, left, removed): a call of it neither rings here nor runs any longer.
      const chatId = (event as FlowEvent<'chat-deleted'>).additional_info.chat_id;
      if (get().incoming?.chatId === chatId) set({ incoming: null });
      if (get().active?.chatId === chatId) set({ active: null });
    } else if (event.event_type === 'call-answered') {
      // Answered on another tab or device of mine: it stops ringing here.
      const callId = (event as FlowEvent<'call-answered'>).additional_info.call_id;
      if (get().incoming?.callId === callId) set({ incoming: null });
    } else if (event.event_type === 'call-rejected') {
      const info = (event as FlowEvent<'call-rejected'>).additional_info;
      if (get().active?.callId === info.call_id) set({ active: null });
      get().showNotice('rejected');
    }
  },
}));
