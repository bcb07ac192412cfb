import type { FlowEvent, FlowEventMap } from '../model/events';
import type { PublicUser } from '../model/types';
import { useCallStore } from './call';
import { takeHandedMeetingTicket } from '../calls/meeting-ticket-handoff';

const ME = 1;
const anna = { id: 2, name: 'Anna' } as PublicUser;

function event<T extends keyof FlowEventMap>(type: T, info: Partial<FlowEventMap[T]>, seq = 1): FlowEvent {
  return { seq, event_type: type, additional_info: info as FlowEventMap[T] } as FlowEvent;
}

const incomingCall = event('call', { chat_id: 7, call_id: 70, room_id: 'room-70', chat_type: 'private', user: anna });

describe('the call store', () => {
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
      return null;
    });
    try {
      useCallStore.getState().applyEvent(incomingCall, ME);
      expect(requested).toEqual(['/api/meet/get-token?chat_id=7']);
      await jest.advanceTimersByTimeAsync(0);
      useCallStore.getState().acceptIncoming();
      expect(open).toHaveBeenCalledWith('/meet/room-70?chat=7', '_blank');
      expect(handedInTheNewTab).toEqual(ticket);
      expect(takeHandedMeetingTicket(7, 'room-70')).toBeNull(); // the opener keeps no copy
    } finally {
      open.mockRestore();
      globalThis.fetch = fetchBefore;
    }
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
