import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from './helpers/server.js';
import { type Person, codeFor, nextEvent, openFlow, privateChat, randomPhone, request, sendText, signUp, upload } from './helpers/client.js';
import { makeStaff } from './helpers/staff.js';

async function inviteCode(server: TestServer, person: Person): Promise<string> {
  const me = await request(server, 'GET', '/user', { token: person.token });
  return me.body.user.invite_link.split('/').pop();
}

/** Follows a link signed out: a new guest, as a Person (no phone) with the chat it came with. */
async function guestVia(server: TestServer, code: string): Promise<{ guest: Person; chat: any }> {
  const followed = await request(server, 'POST', `/user/link?code=${encodeURIComponent(code)}`);
  assert.equal(followed.status, 200, JSON.stringify(followed.body));
  assert.equal(followed.body.is_new_user, true);
  const token = followed.body.jwt_info.access_token;
  const me = await request(server, 'GET', '/user', { token });
  return { guest: { id: me.body.user.id, phone: '', token, refresh: followed.body.jwt_info.refresh_token }, chat: followed.body.chat };
}

/** Codes sent to this phone are made a few minutes older, so a new one may be asked for at once. */
async function ageCodes(server: TestServer, phone: string): Promise<void> {
  await server.db.query(`UPDATE otp_codes SET created_at = created_at - interval '5 minutes' WHERE phone = $1`, [phone]);
}

async function verifyPhone(server: TestServer, person: Person, phone: string) {
  await ageCodes(server, phone);
  const sent = await request(server, 'PUT', '/user/phone', { token: person.token, body: { phone } });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  assert.equal(sent.body.sent, true);
  return request(server, 'PUT', '/user/phone/verify', { token: person.token, body: { phone, code: await codeFor(server, phone) } });
}

const history = async (server: TestServer, person: Person, chatId: number) =>
  (await request(server, 'GET', `/chat/history?chat_id=${chatId}`, { token: person.token })).body.messages;

describe('invite links and guests', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ GUESTS_PER_IP_PER_HOUR: '1000' });
  });
  after(() => server.close());

  it('opens the chat with the inviter for someone signed in, who gets the inviter as a contact', async () => {
    const anna = await signUp(server, { name: 'Anna' });
    const boris = await signUp(server);
    const code = await inviteCode(server, anna);
    const borisFlow = await openFlow(server, boris);
    const followed = await request(server, 'POST', `/user/link?code=${code}`, { token: boris.token });
    assert.equal(followed.status, 200);
    // His other tabs learn of the new contact, as of any contact added.
    const added = await nextEvent(borisFlow, (event) => event.event_type === 'contact-added');
    assert.deepEqual([added.additional_info.contact.id, added.additional_info.contact.alias_name], [anna.id, 'Anna']);
    assert.deepEqual(Object.keys(followed.body), ['chat']);
    assert.equal(followed.body.chat.chat_type, 'private');
    assert.deepEqual([...followed.body.chat.participants].sort(), [anna.id, boris.id].sort());
    const again = await request(server, 'POST', `/user/link?code=${code}`, { token: boris.token });
    assert.equal(again.body.chat.id, followed.body.chat.id, 'one chat per pair');
    const contacts = await request(server, 'GET', '/user/contacts', { token: boris.token });
    assert.deepEqual(contacts.body.contacts.map((contact: any) => [contact.id, contact.alias_name]), [[anna.id, 'Anna']]);
    await sendText(server, anna, followed.body.chat.id, 'marker');
    await nextEvent(borisFlow, (event) => event.additional_info.message?.text === 'marker');
    assert.equal(borisFlow.frames.filter((frame) => frame.event_type === 'contact-added').length, 1, 'once: the second follow added nobody');
    borisFlow.close();

    assert.deepEqual((await request(server, 'POST', '/user/link?code=nope', { token: boris.token })).body.error, 'invite_unknown');
    assert.equal((await request(server, 'POST', '/user/link?code=nope')).status, 404);
    assert.equal((await request(server, 'POST', `/user/link?code=${code}`, { token: 'forged' })).status, 401, 'a bad bearer is not a guest');
    assert.equal((await request(server, 'POST', `/user/link?code=${code}`, { token: anna.token })).body.error, 'chat_with_self');
  });

  it('makes a guest with the chat for someone signed out, attributed to the inviter', async () => {
    const anna = await signUp(server, { name: 'Anna' });
    const annaFlow = await openFlow(server, anna);
    const { guest, chat } = await guestVia(server, await inviteCode(server, anna));
    const me = (await request(server, 'GET', '/user', { token: guest.token })).body.user;
    assert.deepEqual([me.temporary, me.phone], [true, null]);
    assert.deepEqual([...chat.participants].sort(), [anna.id, guest.id].sort());
    const [row] = await server.db.query<{ invited_by: number }>('SELECT invited_by FROM users WHERE id = $1', [guest.id]);
    assert.equal(row!.invited_by, anna.id);
    const created = await nextEvent(annaFlow, (event) => event.event_type === 'chat-created');
    assert.equal(created.additional_info.chat_id, chat.id);

    // The guest reads and writes in that chat.
    assert.equal((await sendText(server, guest, chat.id, 'hello from a guest')).type, 'ack');
    await nextEvent(annaFlow, (event) => event.additional_info.message?.text === 'hello from a guest');
    await sendText(server, anna, chat.id, 'welcome');
    assert.deepEqual((await history(server, guest, chat.id)).map((m: any) => m.text), ['hello from a guest', 'welcome']);
    annaFlow.close();
  });

  it('keeps guests to their chats: no contacts, chat creation, joining, finding or staff routes', async () => {
    const anna = await signUp(server);
    const { guest, chat } = await guestVia(server, await inviteCode(server, anna));
    const refused = [
      request(server, 'GET', '/user/contacts', { token: guest.token }),
      request(server, 'POST', '/user/contacts/add', { token: guest.token, body: { user_phone: anna.phone, name: 'A' } }),
      request(server, 'POST', '/chat/create', { token: guest.token, body: { chat_type: 'private', participants: [anna.id] } }),
      request(server, 'POST', '/chat/create', { token: guest.token, body: { chat_type: 'group', name: 'G', participants: [anna.id] } }),
      request(server, 'POST', '/chat/join', { token: guest.token, body: { code: 'C-AAAAAAAAAA' } }),
      request(server, 'GET', '/chat/find?query=a', { token: guest.token }),
    ];
    for (const response of await Promise.all(refused)) {
      assert.deepEqual([response.status, response.body.error], [403, 'guests_not_allowed']);
    }
    const stats = await request(server, 'GET', '/stats/total', { token: guest.token });
    assert.deepEqual([stats.status, stats.body.error], [403, 'guests_not_allowed']);
    // What they may do: their profile, their chat, files for it.
    assert.equal((await request(server, 'PUT', '/user/edit', { token: guest.token, body: { name: 'Visitor' } })).body.user.name, 'Visitor');
    assert.equal((await request(server, 'GET', `/chat/${chat.id}`, { token: guest.token })).status, 200);
    assert.equal((await upload(server, guest)).status, 201);
    assert.equal((await request(server, 'PUT', '/chat/interval', { token: guest.token, body: { chat_id: chat.id, interval: 60 } })).status, 200);
  });

  it('turns a guest into a full user by verifying a new phone, keeping the chats', async () => {
    const anna = await signUp(server);
    const inviter = await signUp(server);
    const { guest, chat } = await guestVia(server, await inviteCode(server, inviter));
    await sendText(server, guest, chat.id, 'before the phone');
    const phone = randomPhone();
    // Someone had invited this phone as a contact: they get the new user as a contact when it is verified.
    await request(server, 'POST', '/user/contacts/add', { token: anna.token, body: { user_phone: phone, name: 'Newcomer' } });
    const verified = await verifyPhone(server, guest, phone);
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    assert.deepEqual([verified.body.user.id, verified.body.user.temporary, verified.body.user.phone], [guest.id, false, phone]);
    const token = verified.body.jwt_info.access_token;
    const list = await request(server, 'GET', '/chat/list', { token });
    assert.deepEqual(list.body.chats.map((row: any) => row.id), [chat.id]);
    assert.equal((await request(server, 'GET', '/user/contacts', { token })).status, 200, 'no longer a guest');
    const [row] = await server.db.query<{ invited_by: number }>('SELECT invited_by FROM users WHERE id = $1', [guest.id]);
    assert.equal(row!.invited_by, inviter.id, 'still attributed to the inviter');
    const annaContacts = await request(server, 'GET', '/user/contacts', { token: anna.token });
    assert.deepEqual(annaContacts.body.contacts.map((contact: any) => contact.id), [guest.id]);
    // The phone now signs in to the same account.
    await ageCodes(server, phone);
    const again = await signUp(server, { phone });
    assert.equal(again.id, guest.id);
  });

  it('merges a guest into the account that already has the phone, keeping the guest’s chats and messages', async () => {
    const anna = await signUp(server, { name: 'Anna' });
    const carl = await signUp(server);
    const existing = await signUp(server, { name: 'Existing' });
    // The account already has a private chat with Anna, with history.
    const oldChat = await privateChat(server, existing, anna);
    await sendText(server, existing, oldChat, 'old 1');
    await sendText(server, anna, oldChat, 'old 2');
    await request(server, 'PUT', `/chat/read?chat_id=${oldChat}`, { token: existing.token });
    // The account no longer keeps Anna among its contacts; the guest, who came by her link, will.
    assert.equal((await request(server, 'DELETE', `/user/contacts/${anna.id}`, { token: existing.token })).status, 200);

    // On another device, the same person follows Anna's link as a guest and talks to Anna.
    const { guest, chat: guestChat } = await guestVia(server, await inviteCode(server, anna));
    await sendText(server, guest, guestChat.id, 'guest 1');
    await sendText(server, anna, guestChat.id, 'guest 2 (unread)');
    const guestName = `guest_${guest.id}`;
    assert.equal((await request(server, 'PUT', '/user/edit', { token: guest.token, body: { username: guestName } })).status, 200);
    // Carl adds the guest to a group and talks there.
    const group = await request(server, 'POST', '/chat/create', { token: carl.token, body: { chat_type: 'group', name: 'G', participants: [guest.id] } });
    const groupId = group.body.chat.id;
    await sendText(server, guest, groupId, 'in the group');
    const upload1 = await upload(server, guest);
    // Carl keeps the guest among his contacts (written directly: a guest has no phone or username to be added by).
    await server.db.query(`INSERT INTO contacts (owner_id, user_id, alias_name) VALUES ($1, $2, 'Guest friend')`, [carl.id, guest.id]);
    const annaFlow = await openFlow(server, anna);
    const existingFlow = await openFlow(server, existing);
    const carlFlow = await openFlow(server, carl);

    const merged = await verifyPhone(server, guest, existing.phone);
    assert.equal(merged.status, 200, JSON.stringify(merged.body));
    assert.equal(merged.body.user.id, existing.id, 'the answer is the existing account');
    assert.equal(merged.body.user.temporary, false);
    const token = merged.body.jwt_info.access_token;
    const account: Person = { ...existing, token };
    // The guest's username went free with it: the account may take it.
    assert.equal((await request(server, 'PUT', '/user/edit', { token, body: { username: guestName } })).status, 200);

    // One chat with Anna, holding both histories in order, the guest's messages now the account's.
    const list = await request(server, 'GET', '/chat/list', { token });
    assert.deepEqual(list.body.chats.map((row: any) => row.id).sort(), [oldChat, groupId].sort());
    const merged1 = await history(server, account, oldChat);
    assert.deepEqual(merged1.map((m: any) => m.text), ['old 1', 'old 2', 'guest 1', 'guest 2 (unread)']);
    assert.deepEqual(merged1.map((m: any) => m.sender_id), [existing.id, anna.id, existing.id, anna.id]);
    const withAnna = list.body.chats.find((row: any) => row.id === oldChat);
    assert.equal(withAnna.last_message.text, 'guest 2 (unread)');
    assert.equal(withAnna.unread_messages, 1, 'counted again from the read marks');
    assert.equal((await request(server, 'GET', `/chat/unread-count/${oldChat}`, { token: anna.token })).body.unread_messages, 0);
    const groupView = list.body.chats.find((row: any) => row.id === groupId);
    assert.deepEqual([...groupView.participants].sort(), [carl.id, existing.id].sort());
    assert.equal((await history(server, account, groupId))[0].sender_id, existing.id);
    const contacts = await request(server, 'GET', '/user/contacts', { token });
    assert.deepEqual(contacts.body.contacts.map((contact: any) => contact.id), [anna.id]);
    const [file] = await server.db.query<{ owner_id: number }>('SELECT owner_id FROM files WHERE path = $1', [upload1.body.file.path]);
    assert.equal(file!.owner_id, existing.id);

    // Anna lost the guest chat and sees the merged one; the account hears of the group it gained.
    await nextEvent(annaFlow, (event) => event.event_type === 'chat-deleted' && event.additional_info.chat_id === guestChat.id);
    const updated = await nextEvent(annaFlow, (event) => event.event_type === 'chat-updated' && event.additional_info.chat_id === oldChat);
    assert.equal(updated.additional_info.chat.last_message.text, 'guest 2 (unread)');
    await nextEvent(existingFlow, (event) => event.event_type === 'chat-created' && event.additional_info.chat_id === groupId);
    // The contacts move too, and every tab concerned hears of it: the account's gains Anna; Carl's guest is now the
    // account, under the name he gave, without a phone he never typed.
    const gained = await nextEvent(existingFlow, (event) => event.event_type === 'contact-added');
    assert.equal(gained.additional_info.contact.id, anna.id);
    await nextEvent(carlFlow, (event) => event.event_type === 'contact-removed' && event.additional_info.contact_id === guest.id);
    const replaced = await nextEvent(carlFlow, (event) => event.event_type === 'contact-added');
    assert.equal(replaced.additional_info.contact.id, existing.id);
    assert.equal(replaced.additional_info.contact.alias_name, 'Guest friend');
    assert.equal(replaced.additional_info.contact.phone, null);
    const carlsContacts = await request(server, 'GET', '/user/contacts', { token: carl.token });
    assert.deepEqual(carlsContacts.body.contacts.map((contact: any) => contact.id), [existing.id]);
    assert.equal((await request(server, 'GET', `/chat/${guestChat.id}`, { token: anna.token })).status, 404);

    // The guest is gone: its account is deleted and its login revoked.
    const [gone] = await server.db.query<{ deleted: boolean }>('SELECT deleted FROM users WHERE id = $1', [guest.id]);
    assert.equal(gone!.deleted, true);
    assert.equal((await request(server, 'POST', '/auth/refresh', { token: guest.refresh })).status, 401);
    // And the pair still has exactly one private chat.
    const reopened = await request(server, 'POST', '/chat/create', { token: anna.token, body: { chat_type: 'private', participants: [existing.id] } });
    assert.equal(reopened.body.chat.id, oldChat);
    annaFlow.close();
    existingFlow.close();
    carlFlow.close();
  });

  it('merges a guest that its own account kept as a contact, and keeps a merged chat with no message in its place', async () => {
    const anna = await signUp(server, { name: 'Anna' });
    const existing = await signUp(server, { name: 'Existing' });
    // The account's chat with Anna had one message, since deleted: the chat keeps the time of its last activity.
    const oldChat = await privateChat(server, existing, anna);
    const only = await sendText(server, existing, oldChat, 'deleted later');
    assert.equal((await request(server, 'DELETE', `/chat/message/${only.message.id}`, { token: existing.token })).status, 200);
    const beforeMerge = (await request(server, 'GET', `/chat/${oldChat}`, { token: anna.token })).body.chat;
    assert.ok(beforeMerge.last_message_at, 'a chat whose last message was deleted keeps its last activity');

    // The same person, as a guest by Anna's link, says nothing; the account keeps the guest among its contacts.
    const { guest } = await guestVia(server, await inviteCode(server, anna));
    await server.db.query(`INSERT INTO contacts (owner_id, user_id, alias_name) VALUES ($1, $2, 'Me elsewhere')`, [existing.id, guest.id]);
    const existingFlow = await openFlow(server, existing);

    const merged = await verifyPhone(server, guest, existing.phone);
    assert.equal(merged.status, 200, JSON.stringify(merged.body));
    const token = merged.body.jwt_info.access_token;
    // The account's tabs drop the guest from its contacts, and never list the account as its own contact.
    await nextEvent(existingFlow, (event) => event.event_type === 'contact-removed' && event.additional_info.contact_id === guest.id);
    const contacts = await request(server, 'GET', '/user/contacts', { token });
    assert.deepEqual(
      contacts.body.contacts.map((contact: any) => contact.id),
      [anna.id],
      'Anna (gained from the guest), not the account itself',
    );
    const [self] = await server.db.query<{ count: number }>('SELECT count(*)::int AS count FROM contacts WHERE owner_id = $1 AND user_id = $1', [existing.id]);
    assert.equal(self!.count, 0);
    // One chat with Anna, still with a time in the list.
    const list = await request(server, 'GET', '/chat/list', { token });
    const withAnna = list.body.chats.find((row: any) => row.id === oldChat);
    assert.ok(withAnna, JSON.stringify(list.body.chats));
    assert.equal(withAnna.last_message, null);
    assert.ok(withAnna.last_message_at, 'not emptied by the merge');
    assert.ok(new Date(withAnna.last_message_at) >= new Date(beforeMerge.last_message_at));
    existingFlow.close();
  });

  it('changes a full user’s phone, refusing one that belongs to someone else', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const taken = await verifyPhone(server, anna, boris.phone);
    assert.deepEqual([taken.status, taken.body.error], [409, 'phone_taken']);
    const fresh = randomPhone();
    // Anna had invited that phone as a contact herself: having it now makes no contact of herself.
    const invited = await request(server, 'POST', '/user/contacts/add', { token: anna.token, body: { user_phone: fresh, name: 'Future' } });
    assert.equal(invited.body.invited, true);
    const changed = await verifyPhone(server, anna, fresh);
    assert.equal(changed.status, 200);
    assert.deepEqual((await request(server, 'GET', '/user/contacts', { token: anna.token })).body.contacts, []);
    assert.deepEqual([changed.body.user.id, changed.body.user.phone], [anna.id, fresh]);
    assert.equal((await request(server, 'PUT', '/user/phone', { token: anna.token, body: { phone: '123' } })).body.error, 'invalid_phone');
    const wrong = await request(server, 'PUT', '/user/phone/verify', { token: anna.token, body: { phone: fresh, code: '000000' } });
    assert.equal(wrong.status, 400);
  });

  it('a new phone is shown to nobody who typed the old one in; whoever invited the new one gets it', async () => {
    const anna = await signUp(server, { name: 'Anna' });
    const boris = await signUp(server);
    const carl = await signUp(server);
    assert.equal((await request(server, 'POST', '/user/contacts/add', { token: boris.token, body: { user_phone: anna.phone, name: 'A.' } })).status, 200);
    const fresh = randomPhone();
    assert.equal((await request(server, 'POST', '/user/contacts/add', { token: carl.token, body: { user_phone: fresh, name: 'New A.' } })).body.invited, true);
    const borisFlow = await openFlow(server, boris);
    try {
      assert.equal((await verifyPhone(server, anna, fresh)).status, 200);
      // Boris's tabs learn that the number is gone from his contact.
      const updated = await nextEvent(borisFlow, (event) => event.event_type === 'contact-updated' && event.additional_info.user.id === anna.id);
      assert.equal('phone' in updated.additional_info.user, false);
    } finally {
      borisFlow.close();
    }
    const seenBy = async (person: Person) => (await request(server, 'GET', `/user/${anna.id}`, { token: person.token })).body.user.phone;
    assert.equal(await seenBy(boris), undefined);
    const borisContact = (await request(server, 'GET', '/user/contacts', { token: boris.token })).body.contacts.find((contact: any) => contact.id === anna.id);
    assert.ok(borisContact, 'still his contact');
    assert.equal(borisContact.phone ?? undefined, undefined);
    assert.equal(await seenBy(carl), fresh, 'Carl typed the new number in');
  });
});

describe('guest limits per address', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ GUESTS_PER_IP_PER_HOUR: '2' });
  });
  after(() => server.close());

  it('makes at most GUESTS_PER_IP_PER_HOUR guests an hour from one address', async () => {
    const anna = await signUp(server);
    const code = await inviteCode(server, anna);
    await guestVia(server, code);
    await guestVia(server, code);
    const third = await request(server, 'POST', `/user/link?code=${code}`);
    assert.deepEqual([third.status, third.body.error], [429, 'guest_limit']);
    const retryAfter = Number(third.headers.get('retry-after'));
    assert.ok(retryAfter > 3500 && retryAfter <= 3600, `Retry-After ${retryAfter}`);
    // Signed-in people following links are not limited.
    const boris = await signUp(server);
    assert.equal((await request(server, 'POST', `/user/link?code=${code}`, { token: boris.token })).status, 200);
  });
});

describe('blocking (admins)', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  it('only admins block, only people below them; the blocked cannot send, refresh or sign in; unblock restores', async () => {
    const admin = await signUp(server);
    await makeStaff(server, admin, 2);
    const anna = await signUp(server);
    const boris = await signUp(server);
    const chatId = await privateChat(server, anna, boris);

    const byUser = await request(server, 'PUT', '/user/block', { token: anna.token, body: { user_id: boris.id, blocked: true } });
    assert.equal(byUser.status, 403);
    const self = await request(server, 'PUT', '/user/block', { token: admin.token, body: { user_id: admin.id, blocked: true } });
    assert.equal(self.status, 403);

    const blocked = await request(server, 'PUT', '/user/block', { token: admin.token, body: { user_id: boris.id, blocked: true } });
    assert.equal(blocked.status, 200);
    assert.equal(blocked.body.user.blocked, true);
    // Only admins see the flag.
    assert.equal((await request(server, 'GET', `/user/${boris.id}`, { token: anna.token })).body.user.blocked, undefined);
    assert.equal((await request(server, 'GET', `/user/${boris.id}`, { token: anna.token })).body.user.notes, undefined);
    assert.equal(typeof (await request(server, 'GET', `/user/${boris.id}`, { token: admin.token })).body.user.notes, 'string');
    assert.equal((await request(server, 'GET', `/user/${boris.id}`, { token: admin.token })).body.user.blocked, true);

    // Their session ended with the block: no socket opens on the old token, and the refresh says why.
    await assert.rejects(sendText(server, boris, chatId, 'still here?'), /upgrade refused: 401/);
    const refreshed = await request(server, 'POST', '/auth/refresh', { token: boris.refresh });
    assert.deepEqual([refreshed.status, refreshed.body.message], [403, 'you are banned']);
    assert.equal((await request(server, 'POST', '/auth/send-code', { body: { phone: boris.phone } })).body.message, 'you are banned');

    const unblocked = await request(server, 'PUT', '/user/block', { token: admin.token, body: { user_id: boris.id, blocked: false } });
    assert.equal(unblocked.body.user.blocked, false);
    // Unblocked, they sign in again (the old tokens stay ended) and write as before.
    assert.equal((await request(server, 'GET', '/chat/list', { token: boris.token })).status, 401);
    await server.db.query(`UPDATE otp_codes SET created_at = created_at - interval '5 minutes' WHERE phone = $1`, [boris.phone]);
    const again = await signUp(server, { phone: boris.phone });
    assert.equal((await sendText(server, again, chatId, 'back again')).type, 'ack');
  });
});
