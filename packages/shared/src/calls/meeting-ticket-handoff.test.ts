import { HANDED_TICKET_MAX_AGE_MS, handOverMeetingTicket, takeHandedMeetingTicket, withdrawMeetingTicket } from './meeting-ticket-handoff';
import { tokenStorage } from '../storage/tokens';
import type { MeetingTicket } from '../model/types';

const ticket = { token: 't', room_id: 'room', call_id: 3, message_id: null, ice_servers: [], ice_transport_policy: 'all', expires_in: 3600, reconnect_seconds: 30 } as MeetingTicket;
const now = 1_000_000;

beforeEach(() => sessionStorage.clear());

test('the meeting tab takes a handed ticket once, for its own chat and room', () => {
  handOverMeetingTicket(5, 7, ticket, now);
  expect(takeHandedMeetingTicket(5, 'room', 7, now + 1000)).toEqual(ticket);
  expect(takeHandedMeetingTicket(5, 'room', 7, now + 1000)).toBeNull(); // read once
});

test('another chat, another room, another person, or a ticket past its moment is not used (and not left behind)', () => {
  handOverMeetingTicket(5, 7, ticket, now);
  expect(takeHandedMeetingTicket(6, 'room', 7, now)).toBeNull();
  expect(sessionStorage.length).toBe(0);
  handOverMeetingTicket(5, 7, ticket, now);
  expect(takeHandedMeetingTicket(5, 'another-room', 7, now)).toBeNull();
  handOverMeetingTicket(5, 7, ticket, now);
  expect(takeHandedMeetingTicket(5, 'room', 8, now)).toBeNull();
  handOverMeetingTicket(5, 7, ticket, now);
  expect(takeHandedMeetingTicket(5, 'room', 7, now + HANDED_TICKET_MAX_AGE_MS)).toBeNull();
});

test('the opener keeps no copy once it has opened the tab', () => {
  handOverMeetingTicket(5, 7, ticket, now);
  withdrawMeetingTicket();
  expect(takeHandedMeetingTicket(5, 'room', 7, now)).toBeNull();
});

test('unreadable contents are ignored', () => {
  sessionStorage.setItem('messenger.meeting-ticket', '{not json');
  expect(takeHandedMeetingTicket(5, 'room', 7, now)).toBeNull();
});

test('signing out removes a ticket that was handed over', () => {
  handOverMeetingTicket(5, 7, ticket, now);
  tokenStorage.clear();
  expect(takeHandedMeetingTicket(5, 'room', 7, now)).toBeNull();
});
