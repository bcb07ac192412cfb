import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from './helpers/server.js';
import { openFlow, privateChat, request, signUp, waitFor, type Person, type SocketProbe } from './helpers/client.js';

const presenceOf = (flow: SocketProbe, userId: number) =>
  flow.frames.filter((frame) => frame.event_type === 'presence' && frame.additional_info.user_id === userId).map((frame) => frame.additional_info);

describe('presence', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  const presence = async (viewer: Person, subject: Person) => {
    const response = await request(server, 'GET', `/user/${subject.id}/presence`, { token: viewer.token });
    return response.status === 200 ? response.body.presence : response.status;
  };
  const setPrivacy = async (person: Person, value: unknown) =>
    request(server, 'PUT', '/user/edit', { token: person.token, body: { last_seen_privacy: value } });

  it('online while a live socket is open, then last seen; told live to whoever has a private chat with them, nobody else', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const carol = await signUp(server);
    await privateChat(server, anna, boris);
    assert.deepEqual(await presence(anna, boris), { user_id: boris.id, status: 'long_ago', last_seen_at: null }, 'never seen yet');
    assert.equal(await presence(carol, boris), 404, 'someone with no chat or contact with him cannot ask');

    const [annaFlow, carolFlow] = await Promise.all([openFlow(server, anna), openFlow(server, carol)]);
    try {
      const borisFlow = await openFlow(server, boris);
      await annaFlow.until(() => presenceOf(annaFlow, boris.id).some((view) => view.status === 'online'));
      assert.equal(typeof annaFlow.frames.find((frame) => frame.event_type === 'presence').seq, 'undefined', 'a signal, not a logged event');
      assert.deepEqual(await presence(anna, boris), { user_id: boris.id, status: 'online', last_seen_at: null });

      const closedAt = Date.now();
      borisFlow.close();
      await annaFlow.until(() => presenceOf(annaFlow, boris.id).some((view) => view.status === 'offline'));
      const offline = presenceOf(annaFlow, boris.id).at(-1);
      assert.ok(Math.abs(Date.parse(offline.last_seen_at) - closedAt) < 10_000, 'last seen when the socket closed');
      assert.deepEqual(await presence(anna, boris), offline);
      assert.equal(presenceOf(carolFlow, boris.id).length, 0, 'someone outside his chats is not told');
      assert.equal(presenceOf(annaFlow, anna.id).length, 0, 'nobody is told of themself');
      const [logged] = await server.db.query<{ n: number }>("SELECT count(*)::int AS n FROM user_events WHERE event_type = 'presence'");
      assert.equal(logged?.n, 0);
    } finally {
      annaFlow.close();
      carolFlow.close();
    }
  });

  it('follows the privacy setting: contacts only, or nobody — who is refused gets only roughly when', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const vika = await signUp(server);
    await privateChat(server, anna, boris);
    await privateChat(server, vika, boris);
    // Boris has Anna in his contacts, not Vika.
    assert.equal((await request(server, 'POST', '/user/contacts/add', { token: boris.token, body: { user_phone: anna.phone, name: 'Anna' } })).status, 200);
    const borisFlow = await openFlow(server, boris);
    const [annaFlow, vikaFlow] = await Promise.all([openFlow(server, anna), openFlow(server, vika)]);
    try {
      const contactsOnly = await setPrivacy(boris, 'contacts');
      assert.equal(contactsOnly.status, 200);
      assert.equal(contactsOnly.body.user.last_seen_privacy, 'contacts');
      await vikaFlow.until(() => presenceOf(vikaFlow, boris.id).some((view) => view.status === 'recently'));
      assert.deepEqual(await presence(vika, boris), { user_id: boris.id, status: 'recently', last_seen_at: null }, 'not even whether he is online');
      assert.equal((await presence(anna, boris)).status, 'online', 'a contact of his still sees it');
      assert.equal((await presence(boris, boris)).status, 'online', 'he sees his own');

      await setPrivacy(boris, 'nobody');
      await annaFlow.until(() => presenceOf(annaFlow, boris.id).at(-1)?.status === 'recently');
      assert.equal((await presence(anna, boris)).status, 'recently');
      // From now on his comings and goings are not signalled to her at all: their timing would give them away.
      const heard = presenceOf(annaFlow, boris.id).length;
      borisFlow.close();
      await waitFor(async () => (await presence(boris, boris)).status === 'offline', 'his going written');
      const again = await openFlow(server, boris);
      await waitFor(async () => (await presence(boris, boris)).status === 'online', 'his return written');
      again.close();
      await waitFor(async () => (await presence(boris, boris)).status === 'offline', 'his going written again');
      assert.equal(presenceOf(annaFlow, boris.id).length, heard);
      assert.equal((await setPrivacy(boris, 'friends')).status, 400);
      assert.equal((await request(server, 'GET', '/user', { token: boris.token })).body.user.last_seen_privacy, 'nobody');
    } finally {
      for (const flow of [borisFlow, annaFlow, vikaFlow]) flow.close();
    }
  });

  it('answers 401 without a token and 404 for an unknown person', async () => {
    const anna = await signUp(server);
    assert.equal((await request(server, 'GET', `/user/${anna.id}/presence`)).status, 401);
    assert.equal((await request(server, 'GET', `/user/${anna.id + 100_000}/presence`, { token: anna.token })).status, 404);
    assert.equal((await request(server, 'GET', '/user/abc/presence', { token: anna.token })).status, 400);
  });
});
