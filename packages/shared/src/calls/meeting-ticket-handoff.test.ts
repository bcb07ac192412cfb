import { handOverMeetingTicket, takeHandedMeetingTicket, withdrawMeetingTicket } from './meeting-ticket-handoff';
import type { MeetingTicket } from '../model/types';

const ticket = { token: 't', room_id: 'room', call_id: 3, message_id: null, ice_servers: [], ice_transport_policy: 'all', expires_in: 3600, reconnect_seconds: 30 } as MeetingTicket;
const now = 1_000_000;

beforeEach(() => sessionStorage.clear());

test('the meeting tab takes a handed ticket once, for its own chat and room', () => {
  handOverMeetingTicket(5, ticket, now);
  expect(takeHandedMeetingTicket(5, 'room', now + 1000)).toEqual(ticket);
  expect(takeHandedMeetingTicket(5, 'room', now + 1000)).toBeNull(); // read once
});

test('another chat, another room, or a ticket near its expiry is not used (and not left behind)', () => {
  handOverMeetingTicket(5, ticket, now);
  expect(takeHandedMeetingTicket(6, 'room', now)).toBeNull();
  expect(sessionStorage.length).toBe(0);
  handOverMeetingTicket(5, ticket, now);
  expect(takeHandedMeetingTicket(5, 'another-room', now)).toBeNull();
  handOverMeetingTicket(5, ticket, now);
  expect(takeHandedMeetingTicket(5, 'room', now + 3600_000 - 30_000)).toBeNull();
});

test('the opener keeps no copy once it has opened the tab', () => {
  handOverMeetingTicket(5, ticket, now);
  withdrawMeetingTicket();
  expect(takeHandedMeetingTicket(5, 'room', now)).toBeNull();
});

test('unreadable contents are ignored', () => {
  sessionStorage.setItem('messenger.meeting-ticket', '{not json');
  expect(takeHandedMeetingTicket(5, 'room', now)).toBeNull();
});
