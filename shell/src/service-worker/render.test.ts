import { parsePush, renderPush, type PushPayload } from './render';
import { chatPath, pickWindow } from './open-chat';

const message: PushPayload = {
  kind: 'message',
  chat_id: 7,
  message_id: 42,
  sender: 'Anna',
  group: null,
  text: 'Hi Boris',
  mention: false,
  silent: false,
  language: 'en',
};

describe('push notifications', () => {
  it('words a message like the app does, one notification per chat', () => {
    const { title, options } = renderPush(message);
    expect(title).toBe('Anna');
    expect(options).toMatchObject({ body: 'Hi Boris', tag: 'chat-7', renotify: true, silent: false, data: { chat_id: 7 } });
    expect(renderPush({ ...message, group: 'Team' }).title).toBe('Anna · Team');
  });

  it('hides nothing it was not given, and speaks the person’s language', () => {
    expect(renderPush({ ...message, text: null }).options.body).toBe('New message');
    expect(renderPush({ ...message, text: null, language: 'de' }).options.body).toBe('Neue Nachricht');
    expect(renderPush({ ...message, text: null, mention: true, language: 'fr' }).options.body).toBe('Vous a mentionné');
    expect(renderPush({ ...message, sender: null, text: null, language: 'xx' }).title).toBe('Messenger');
    expect(renderPush({ ...message, silent: true }).options.silent).toBe(true);
  });

  it('rings for a call, and turns the ring into a missed call when nobody answered', () => {
    const ring = renderPush({ kind: 'call', chat_id: 7, call_id: 3, caller: 'Anna', group: null, silent: false, language: 'ru' });
    expect(ring.title).toBe('Anna');
    expect(ring.options).toMatchObject({ body: 'Входящий звонок', tag: 'call-3', renotify: true, data: { chat_id: 7 } });
    const group = renderPush({ kind: 'call', chat_id: 8, call_id: 4, caller: 'Anna', group: 'Team', silent: false, language: 'en' });
    expect(group.options.body).toBe('Call in Team');
    const missed = renderPush({ kind: 'call-missed', chat_id: 7, call_id: 3, caller: 'Anna', group: null, silent: false, language: 'de' });
    expect(missed.options).toMatchObject({ body: 'Verpasster Anruf', tag: 'call-3', renotify: false });
    expect(renderPush({ kind: 'call-missed', chat_id: 8, call_id: 4, caller: 'Anna', group: 'Team', silent: false, language: 'en' }).options.body).toBe('Missed call in Team');
  });

  it('ignores payloads it does not know', () => {
    expect(parsePush(message)).toEqual(message);
    expect(parsePush(null)).toBeNull();
    expect(parsePush({ kind: 'message', chat_id: '7', message_id: 1 })).toBeNull();
    expect(parsePush({ kind: 'other', chat_id: 7 })).toBeNull();
  });
});

describe('opening a clicked notification’s chat', () => {
  const origin = 'https://chat.example.com';
  const win = (path: string, focused = false, visibilityState: DocumentVisibilityState = 'hidden', at = origin) => ({
    url: `${at}${path}`,
    focused,
    visibilityState,
  });

  it('brings up an app window of this site — the focused or visible one first — never a call’s own tab', () => {
    const meeting = win('/meet/abc', true, 'visible');
    const hidden = win('/5');
    const visible = win('/6', false, 'visible');
    expect(pickWindow([meeting, hidden, visible], origin)).toBe(visible);
    expect(pickWindow([meeting, hidden], origin)).toBe(hidden);
    expect(pickWindow([meeting, win('/', true, 'visible', 'https://other.example.com')], origin)).toBeUndefined();
    expect(chatPath(7)).toBe('/7');
    expect(chatPath(undefined)).toBe('/');
  });
});
