import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from './helpers/server.js';
import { openFlow, privateChat, request, sendText, signUp, waitFor, type Person } from './helpers/client.js';
import { LocalPushService, type FakeBrowserSubscription } from './helpers/push-service.js';
import { pruneSubscriptions } from '../src/modules/push/notifier.js';

describe('web push', () => {
  let server: TestServer;
  let pushService: LocalPushService;
  before(async () => {
    pushService = await LocalPushService.start();
    // Calls ring for 2 s here: the ring's lifetime follows it, and a missed call comes soon.
    server = await startServer({ PUSH_EXTRA_ORIGINS: pushService.origin, PUSH_SUBJECT: 'mailto:ops@example.com', CALL_RING_SECONDS: '2' });
  });
  after(async () => {
    await server.close();
    await pushService.close();
  });

  const subscribe = async (person: Person, language = 'en'): Promise<FakeBrowserSubscription> => {
    const subscription = pushService.subscribe();
    const saved = await request(server, 'PUT', '/push/subscription', { token: person.token, body: { ...subscription.json, language } });
    assert.equal(saved.status, 204, JSON.stringify(saved.body));
    return subscription;
  };
  /** Every push the server handed over has been posted (and answered). */
  const settled = () => waitFor(() => server.app.services.push.idle, 'pushes sent');
  const subscriptionCount = async (person: Person) =>
    (await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM push_subscriptions WHERE user_id = $1', [person.id]))[0]!.n;

  it('gives its VAPID key and takes only push services’ addresses, from signed-in people', async () => {
    const anna = await signUp(server);
    const key = await request(server, 'GET', '/push/key', { token: anna.token });
    assert.equal(key.status, 200);
    const point = Buffer.from(key.body.public_key, 'base64url');
    assert.equal(point.length, 65, 'an uncompressed P-256 point');
    assert.equal(point[0], 4);
    assert.equal((await request(server, 'GET', '/push/key')).status, 401);

    const subscription = pushService.subscribe();
    const put = (body: unknown) => request(server, 'PUT', '/push/subscription', { token: anna.token, body });
    assert.equal((await request(server, 'PUT', '/push/subscription', { body: { ...subscription.json, language: 'en' } })).status, 401);
    for (const endpoint of ['http://169.254.169.254/latest/meta-data', 'https://evil.example.com/push/1', 'https://fcm.googleapis.com.evil.example/x', 'not a url']) {
      const refused = await put({ ...subscription.json, endpoint, language: 'en' });
      assert.equal(refused.status, 400, endpoint);
      assert.equal(refused.body.error, 'invalid_push_endpoint');
    }
    assert.equal((await put({ ...subscription.json, keys: { p256dh: 'short', auth: subscription.json.keys.auth }, language: 'en' })).status, 400);
    const offCurve = Buffer.from(subscription.json.keys.p256dh, 'base64url');
    offCurve[40]! ^= 1;
    const notAPoint = await put({ ...subscription.json, keys: { p256dh: offCurve.toString('base64url'), auth: subscription.json.keys.auth }, language: 'en' });
    assert.equal(notAPoint.status, 400, 'a key that is not a point on the curve could never be pushed to');
    assert.equal(notAPoint.body.error, 'invalid_push_key');
    assert.equal((await put({ ...subscription.json, language: 'xx' })).status, 400);
    assert.equal((await put({ endpoint: 'https://fcm.googleapis.com/fcm/send/abc', keys: subscription.json.keys, language: 'en' })).status, 204, 'FCM is a push service');
    assert.equal(await subscriptionCount(anna), 1);
    // A login is one browser: subscribing again (a new endpoint) replaces the login's earlier one.
    assert.equal((await put({ ...subscription.json, language: 'en' })).status, 204);
    const rows = await server.db.query<{ endpoint: string }>('SELECT endpoint FROM push_subscriptions WHERE user_id = $1', [anna.id]);
    assert.deepEqual(rows.map((row) => row.endpoint), [subscription.json.endpoint]);

    // Someone who learnt that endpoint cannot take it over without the browser's secret.
    const mallory = await signUp(server);
    const takeover = await request(server, 'PUT', '/push/subscription', {
      token: mallory.token,
      body: { ...subscription.json, keys: { ...subscription.json.keys, auth: Buffer.alloc(16, 7).toString('base64url') }, language: 'en' },
    });
    assert.equal(takeover.status, 204, 'answered alike');
    assert.equal(await subscriptionCount(anna), 1, 'still Anna’s');
    assert.equal(await subscriptionCount(mallory), 0);
  });

  it('a message to someone whose app is closed reaches their browser, encrypted and signed; not while the app is open', async () => {
    const anna = await signUp(server, { name: 'Anna' });
    const boris = await signUp(server, { name: 'Boris' });
    const chatId = await privateChat(server, anna, boris);
    const browser = await subscribe(boris, 'de');

    const sent = await sendText(server, anna, chatId, 'Hi Boris');
    await waitFor(() => pushService.for(browser).length === 1, 'the push');
    const [push] = pushService.for(browser);
    assert.deepEqual(push!.payload, {
      kind: 'message',
      chat_id: chatId,
      message_id: sent.message.id,
      sender: 'Anna',
      group: null,
      text: 'Hi Boris',
      mention: false,
      silent: false,
      language: 'de',
    });
    assert.equal(push!.topic, `chat${chatId}`, 'one waiting push per chat');
    assert.equal(push!.urgency, 'high');
    assert.ok(push!.ttl > 0);
    assert.equal(push!.vapid.aud, pushService.origin);
    assert.equal(push!.vapid.sub, 'mailto:ops@example.com');
    assert.equal(push!.vapid.key, (await request(server, 'GET', '/push/key', { token: boris.token })).body.public_key);
    assert.ok(push!.vapid.exp * 1000 > Date.now());
    assert.deepEqual(pushService.refused, []);

    // Anna, the sender, is never pushed about her own message, nor Boris while his app is open.
    const annasBrowser = await subscribe(anna);
    const flow = await openFlow(server, boris);
    try {
      await sendText(server, anna, chatId, 'Are you there?');
      await flow.until(() => flow.frames.some((frame) => frame.additional_info?.message?.text === 'Are you there?'));
      await settled();
      assert.equal(pushService.for(browser).length, 1, 'online: the app tells him itself');
    } finally {
      flow.close();
    }
    assert.equal(pushService.for(annasBrowser).length, 0);
  });

  it('follows the settings: muted chats stay silent except for a mention, private notifications hide the text', async () => {
    const anna = await signUp(server, { name: 'Anna' });
    const boris = await signUp(server, { name: 'Boris' });
    await request(server, 'PUT', '/user/edit', { token: boris.token, body: { username: 'boris_push' } });
    const group = await request(server, 'POST', '/chat/create', { token: anna.token, body: { chat_type: 'group', name: 'Plans', participants: [boris.id] } });
    const groupId = group.body.chat.id;
    const browser = await subscribe(boris);
    const received = () => pushService.for(browser).map((push) => push.payload);

    assert.equal((await request(server, 'PUT', '/chat/notifications', { token: boris.token, body: { chat_id: groupId, notifications: false } })).status, 200);
    await sendText(server, anna, groupId, 'lunch?');
    await settled();
    assert.equal(received().length, 0, 'a muted group is silent');
    await sendText(server, anna, groupId, '@boris_push lunch?');
    await waitFor(() => received().length === 1, 'the mention gets through');
    assert.deepEqual(
      { sender: received()[0].sender, group: received()[0].group, text: received()[0].text, mention: received()[0].mention },
      { sender: 'Anna', group: 'Plans', text: '@boris_push lunch?', mention: true },
    );

    await request(server, 'PUT', '/chat/notifications', { token: boris.token, body: { chat_id: groupId, notifications: true } });
    await request(server, 'PUT', '/user/edit', { token: boris.token, body: { private_notifications: true, sound_notifications: false } });
    await sendText(server, anna, groupId, 'secret plans');
    await waitFor(() => received().length === 2, 'the second push');
    assert.equal(received()[1].text, null, 'private notifications: no text leaves the server');
    assert.equal(received()[1].silent, true, 'no sound');

    await request(server, 'PUT', '/user/edit', { token: boris.token, body: { popup_notifications: false } });
    await sendText(server, anna, groupId, 'anyone?');
    await settled();
    assert.equal(received().length, 2, 'notifications off: nothing');
  });

  it('says nothing of a secret chat’s text or of a self-deleting message’s, which waits only as long as it lives; nothing to who left', async () => {
    const anna = await signUp(server, { name: 'Anna' });
    const boris = await signUp(server, { name: 'Boris' });
    const carol = await signUp(server, { name: 'Carol' });
    const browser = await subscribe(boris);
    const carols = await subscribe(carol);
    const received = () => pushService.for(browser).map((push) => push.payload);

    // Secret chats are made by staff (spec §6); which chat is secret is all that matters here.
    const secret = await request(server, 'POST', '/chat/create', { token: anna.token, body: { chat_type: 'group', name: 'Hidden', participants: [boris.id] } });
    await server.db.query('UPDATE chats SET is_secret = true WHERE id = $1', [secret.body.chat.id]);
    await sendText(server, anna, secret.body.chat.id, 'the code is 1234');
    await waitFor(() => received().length === 1, 'the secret chat’s push');
    assert.deepEqual({ group: received()[0].group, text: received()[0].text }, { group: 'Hidden', text: null });

    const chatId = await privateChat(server, anna, boris);
    assert.equal((await request(server, 'PUT', '/chat/interval', { token: anna.token, body: { chat_id: chatId, interval: 30 } })).status, 200);
    await sendText(server, anna, chatId, 'gone in 30 s');
    await waitFor(() => received().length === 2, 'the self-deleting message’s push');
    assert.equal(received()[1].text, null);
    assert.ok(pushService.for(browser)[1]!.ttl <= 30, 'not kept at the push service past the message');

    const group = await request(server, 'POST', '/chat/create', { token: anna.token, body: { chat_type: 'group', name: 'Team', participants: [carol.id] } });
    const groupId = group.body.chat.id;
    await sendText(server, anna, groupId, 'welcome');
    await waitFor(() => pushService.for(carols).length === 1, 'Carol’s push while a member');
    assert.equal((await request(server, 'PUT', '/chat/manage-participants', { token: anna.token, body: { chat_id: groupId, actions: [{ add: false, participants: [carol.id] }] } })).status, 200);
    await sendText(server, anna, groupId, 'about Carol');
    await settled();
    assert.equal(pushService.for(carols).length, 1, 'who left hears nothing more');
  });

  it('a ringing call reaches the callee, and a contact name of their own names the caller', async () => {
    const anna = await signUp(server, { name: 'Anna' });
    const boris = await signUp(server, { name: 'Boris' });
    const chatId = await privateChat(server, anna, boris);
    await request(server, 'POST', '/user/contacts/add', { token: boris.token, body: { user_phone: anna.phone, name: 'Sister' } });
    const browser = await subscribe(boris);
    const started = await request(server, 'POST', '/meet/call', { token: anna.token, body: { chat_id: chatId } });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    await waitFor(() => pushService.for(browser).length === 1, 'the ring');
    const [ring] = pushService.for(browser);
    assert.deepEqual(ring!.payload, { kind: 'call', chat_id: chatId, call_id: started.body.call.id, caller: 'Sister', group: null, silent: false, language: 'en' });
    assert.equal(ring!.ttl, 2, 'kept at the push service only while it rings (CALL_RING_SECONDS)');
    assert.equal(ring!.topic, `call${started.body.call.id}`);
    // Nobody answers: the ring on his device turns into a missed call (same topic: it replaces a waiting ring).
    await waitFor(() => pushService.for(browser).length === 2, 'the missed call');
    const missed = pushService.for(browser)[1]!;
    assert.deepEqual(missed.payload, { ...ring!.payload, kind: 'call-missed' });
    assert.equal(missed.topic, ring!.topic);
  });

  it('ends with the login: signing out, or the browser dropping it, removes the subscription; nobody removes another’s', async () => {
    const anna = await signUp(server, { name: 'Anna' });
    const boris = await signUp(server, { name: 'Boris' });
    const carol = await signUp(server);
    const chatId = await privateChat(server, anna, boris);
    const browser = await subscribe(boris);

    const other = await request(server, 'DELETE', '/push/subscription', { token: carol.token, body: { endpoint: browser.json.endpoint } });
    assert.equal(other.status, 204, 'the same answer as for one’s own');
    assert.equal(await subscriptionCount(boris), 1, 'but someone else’s stays');

    pushService.gone.add(browser.id);
    await sendText(server, anna, chatId, 'still there?');
    await waitFor(async () => (await subscriptionCount(boris)) === 0, 'the gone subscription removed');

    const again = await subscribe(boris);
    assert.equal((await request(server, 'POST', '/auth/sign-out', { token: boris.refresh })).status, 204);
    assert.equal(await subscriptionCount(boris), 0, 'signed out: the browser is told nothing more');
    await sendText(server, anna, chatId, 'hello?');
    await settled();
    assert.equal(pushService.for(again).length, 0);

    // A login that ended without a sign-out (expired here) gets nothing either, and the hourly prune removes it.
    const eve = await signUp(server);
    const evesChat = await privateChat(server, anna, eve);
    const eves = await subscribe(eve);
    await server.db.query(`UPDATE refresh_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [eve.id]);
    await sendText(server, anna, evesChat, 'still there?');
    await settled();
    assert.equal(pushService.for(eves).length, 0);
    await pruneSubscriptions(server.db);
    assert.equal(await subscriptionCount(eve), 0);

    const dave = await signUp(server);
    const daves = await subscribe(dave);
    assert.equal((await request(server, 'DELETE', '/push/subscription', { token: dave.token, body: { endpoint: daves.json.endpoint } })).status, 204);
    assert.equal(await subscriptionCount(dave), 0, 'unsubscribed');
  });
});
