import type { FlowEvent, FlowEventMap } from '../model/events';
import type { PublicUser } from '../model/types';
import { useCallStore } from './call';
import { takeHandedMeetingTicket } from '../calls/meeting-ticket-handoff';
import { tokenStorage } from '../storage/tokens';
import { useNotificationsStore } from './notifications';
import { initTestI18n } from '../testing';

/** A JWT-shaped access token of mine (only its payload is read on this side). */
const myToken = () => `header.${btoa(JSON.stringify({ sub: String(ME), exp: Math.floor(Date.now() / 1000) + 3600 }))}.signature`;

const ME = 1;
const anna = { id: 2, name: 'Anna' } as PublicUser;

function event<T extends keyof FlowEventMap>(type: T, info: Partial<FlowEventMap[T]>, seq = 1): FlowEvent {
  return { seq, event_type: type, additional_info: info as FlowEventMap[T] } as FlowEvent;
}

const incomingCall = event('call', { chat_id: 7, call_id: 70, room_id: 'room-70', chat_type: 'private', user: anna });

describe('the call store', () => {
  beforeAll(async () => {
    await initTestI18n();
  });
  beforeEach(() => {
    jest.useFakeTimers();
    useCallStore.setState({ incoming: null, active: null, notice: null });
  });
  afterEach(() => jest.useRealTimers());

  it('offers an incoming call and forgets it when that call ends', () => {
    useCallStore.getState().applyEvent(incomingCall, ME);
    expect(useCallStore.getState().incoming).toMatchObject({ chatId: 7, callId: 70, roomId: 'room-70', caller: anna });
    // Another call's end changes nothing.
    useCallStore.getState().applyEvent(event('hang', { chat_id: 8, call_id: 80, reason: 'ended' }), ME);
    expect(useCallStore.getState().incoming).not.toBeNull();
    useCallStore.getState().applyEvent(event('hang', { chat_id: 7, call_id: 70, reason: 'missed' }), ME);
    expect(useCallStore.getState().incoming).toBeNull();
  });

  it('stops ringing and ends the call of a chat I am out of (deleted, left or removed)', () => {
    useCallStore.getState().applyEvent(incomingCall, ME);
    useCallStore.getState().applyEvent(event('chat-deleted', { chat_id: 8 }), ME);
    expect(useCallStore.getState().incoming).not.toBeNull();
    useCallStore.getState().applyEvent(event('chat-deleted', { chat_id: 7 }), ME);
    expect(useCallStore.getState().incoming).toBeNull();
    useCallStore.getState().joinRoom(9, 90, 'room-90');
    useCallStore.getState().applyEvent(event('chat-deleted', { chat_id: 9 }), ME);
    expect(useCallStore.getState().active).toBeNull();
  });

  it('stops ringing once I answered that call on another tab or device', () => {
    useCallStore.getState().applyEvent(incomingCall, ME);
    useCallStore.getState().applyEvent(event('call-answered', { chat_id: 8, call_id: 80 }), ME);
    expect(useCallStore.getState().incoming).not.toBeNull();
    useCallStore.getState().applyEvent(event('call-answered', { chat_id: 7, call_id: 70 }), ME);
    expect(useCallStore.getState().incoming).toBeNull();
  });

  it("fetches a ringing call's ticket, and accepting hands it to the meeting tab it opens", async () => {
    const ticket = { token: 'meet', room_id: 'room-70', call_id: 70, message_id: null, ice_servers: [], ice_transport_policy: 'all', expires_in: 3600, reconnect_seconds: 30 };
    const requested: string[] = [];
    const fetchBefore = globalThis.fetch;
    globalThis.fetch = (async (url: string) => {
      requested.push(String(url));
      return { ok: true, status: 200, json: async () => ticket } as Response;
    }) as typeof fetch;
    let handedInTheNewTab: unknown = 'not opened';
    const open = jest.spyOn(window, 'open').mockImplementation(() => {
      // What the new tab's copy of sessionStorage holds at the moment it is opened.
      handedInTheNewTab = JSON.parse(sessionStorage.getItem('messenger.meeting-ticket') ?? 'null')?.ticket;
      return {} as Window;
    });
    tokenStorage.save({ access_token: myToken(), refresh_token: 'refresh' } as never);
    try {
      useCallStore.getState().applyEvent(incomingCall, ME);
      expect(requested).toEqual(['/api/meet/get-token?chat_id=7']);
      await jest.advanceTimersByTimeAsync(0);
      useCallStore.getState().acceptIncoming();
      expect(open).toHaveBeenCalledWith('/meet/room-70?chat=7', '_blank');
      expect(handedInTheNewTab).toEqual(ticket);
      expect(takeHandedMeetingTicket(7, 'room-70', ME)).toBeNull(); // the opener keeps no copy
    } finally {
      open.mockRestore();
      globalThis.fetch = fetchBefore;
    }
  });

  it('a browser that refuses the call tab: the call rings on with its ticket, and the person is told why', async () => {
    const ticket = { token: 'meet', room_id: 'room-70', call_id: 70, message_id: null, ice_servers: [], ice_transport_policy: 'all', expires_in: 3600, reconnect_seconds: 30 };
    const fetchBefore = globalThis.fetch;
    globalThis.fetch = (async () => ({ ok: true, status: 200, json: async () => ticket }) as Response) as typeof fetch;
    const handed: unknown[] = [];
    const open = jest.spyOn(window, 'open').mockImplementation(() => {
      handed.push(JSON.parse(sessionStorage.getItem('messenger.meeting-ticket') ?? 'null')?.ticket);
      return null; // pop-ups blocked
    });
    tokenStorage.save({ access_token: myToken(), refresh_token: 'refresh' } as never);
    useNotificationsStore.getState().clear();
    try {
      useCallStore.getState().applyEvent(incomingCall, ME);
      await jest.advanceTimersByTimeAsync(0);
      useCallStore.getState().acceptIncoming();
      expect(useCallStore.getState().incoming).toMatchObject({ chatId: 7, callId: 70 });
      expect(useNotificationsStore.getState().items.map((item) => [item.kind, item.text])).toEqual([['warning', "Your browser blocked the call's window. Allow pop-ups for this site, then accept the call again."]]);
      expect(takeHandedMeetingTicket(7, 'room-70', ME)).toBeNull();
      // Pop-ups allowed now: accepting again opens the tab, and hands it the same ticket.
      open.mockImplementation(() => {
        handed.push(JSON.parse(sessionStorage.getItem('messenger.meeting-ticket') ?? 'null')?.ticket);
        return {} as Window;
      });
      useCallStore.getState().acceptIncoming();
      expect(useCallStore.getState().incoming).toBeNull();
      expect(handed).toEqual([ticket, ticket]);
    } finally {
      open.mockRestore();
      globalThis.fetch = fetchBefore;
    }
  });

  it('a tab nobody is looking at does not fetch the ticket of a call ringing in it', () => {
    const requested: string[] = [];
    const fetchBefore = globalThis.fetch;
    globalThis.fetch = (async (url: string) => {
      requested.push(String(url));
      return { ok: true, status: 200, json: async () => ({}) } as Response;
    }) as typeof fetch;
    const hidden = jest.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    try {
      useCallStore.getState().applyEvent(incomingCall, ME);
      expect(useCallStore.getState().incoming).not.toBeNull(); // it still rings
      expect(requested).toEqual([]);
    } finally {
      hidden.mockRestore();
      globalThis.fetch = fetchBefore;
    }
  });

  it('does not ring while this tab is in another call (a group call gets past the busy rule)', () => {
    useCallStore.getState().joinRoom(9, 90, 'room-90');
    useCallStore.getState().applyEvent(incomingCall, ME);
    expect(useCallStore.getState().incoming).toBeNull();
    useCallStore.getState().endActive();
    expect(useCallStore.getState().incoming).toBeNull();
  });

  it('does not ring for a call this tab is already in', () => {
    useCallStore.getState().joinRoom(7, 70, 'room-70');
    useCallStore.getState().applyEvent(incomingCall, ME);
    expect(useCallStore.getState().incoming).toBeNull();
  });

  it('a declined call closes the window and shows the notice for 5 s', () => {
    useCallStore.setState({ active: { chatId: 7, callId: 70, roomId: 'room-70', outgoing: true } });
    useCallStore.getState().applyEvent(event('call-rejected', { chat_id: 7, call_id: 70, user: anna }), ME);
    expect(useCallStore.getState().active).toBeNull();
    expect(useCallStore.getState().notice?.kind).toBe('rejected');
    jest.advanceTimersByTime(5000);
    expect(useCallStore.getState().notice).toBeNull();
  });

  it('a busy callee ends my call with the busy notice', () => {
    useCallStore.setState({ active: { chatId: 7, callId: 70, roomId: 'room-70', outgoing: true } });
    useCallStore.getState().applyEvent(event('hang', { chat_id: 7, call_id: 70, reason: 'busy' }), ME);
    expect(useCallStore.getState().active).toBeNull();
    expect(useCallStore.getState().notice?.kind).toBe('busy');
  });

  it('starting a second call while in one is refused here, without asking the server', async () => {
    useCallStore.setState({ active: { chatId: 7, callId: 70, roomId: 'room-70', outgoing: false } });
    await useCallStore.getState().startCall(9);
    expect(useCallStore.getState().active?.chatId).toBe(7);
    expect(useCallStore.getState().notice?.kind).toBe('alreadyInCall');
  });
});
