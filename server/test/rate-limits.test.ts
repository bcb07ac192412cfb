import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startServer, type TestServer } from './helpers/server.js';
import { SocketProbe, chatSocketUrl, privateChat, request, sendText, signUp, upload } from './helpers/client.js';

// Small allowances so that the limits are reached in a few requests; the defaults are in config.ts.
const MESSAGES = 5;
const LOOKUPS = 4;
const UPLOADS = 2;
const SOCKETS = 6;

describe('per-person rate limits', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({
      RATE_MESSAGES_PER_10S: String(MESSAGES),
      RATE_LOOKUPS_PER_MINUTE: String(LOOKUPS),
      RATE_UPLOADS_PER_MINUTE: String(UPLOADS),
      RATE_SOCKETS_PER_MINUTE: String(SOCKETS),
    });
  });
  after(() => server.close());

  it('refuses sends past the allowance with 429 and a wait, keeps later ones behind the refused one, and stores the rest in order once resent', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const chatId = await privateChat(server, anna, boris);
    const socket = await SocketProbe.open(chatSocketUrl(server, anna.token));
    const clientIds = Array.from({ length: MESSAGES + 4 }, () => randomUUID());
    clientIds.forEach((clientId, index) => socket.send({ type: 'send', client_id: clientId, chat_id: chatId, text: `flood ${index}` }));
    const answers = await socket.until((frames) => frames.filter((frame) => frame.client_id).length === clientIds.length);
    const answerOf = (clientId: string) => answers.find((frame) => frame.client_id === clientId);
    for (const clientId of clientIds.slice(0, MESSAGES)) assert.equal(answerOf(clientId).type, 'ack');
    for (const clientId of clientIds.slice(MESSAGES)) {
      const refusal = answerOf(clientId);
      assert.deepEqual([refusal.type, refusal.error, refusal.status], ['error', 'rate_limited', 429]);
      assert.ok(refusal.retry_after_ms > 0 && refusal.retry_after_ms <= 10_000, `retry_after_ms ${refusal.retry_after_ms}`);
    }

    // Someone else is not slowed by Anna's flood.
    const borisAck = await sendText(server, boris, chatId, 'I am not limited');
    assert.equal(borisAck.type, 'ack');

    // A later message cannot overtake the refused one while it waits: refused until that one comes again.
    const impatient = randomUUID();
    socket.send({ type: 'send', client_id: impatient, chat_id: chatId, text: 'overtaking?' });
    const overtaking = (await socket.until((frames) => frames.some((frame) => frame.client_id === impatient))).find(
      (frame) => frame.client_id === impatient,
    );
    assert.equal(overtaking.error, 'rate_limited');

    // After the wait, the refused ones go again in order and are stored in that order.
    const wait = Math.max(...clientIds.slice(MESSAGES).map((clientId) => answerOf(clientId).retry_after_ms));
    await new Promise((resolve) => setTimeout(resolve, wait + 50)); // the server's own wait, not a guess
    const resent = [...clientIds.slice(MESSAGES), impatient];
    resent.forEach((clientId, index) => socket.send({ type: 'send', client_id: clientId, chat_id: chatId, text: `again ${index}` }));
    await socket.until((frames) => resent.every((clientId) => frames.some((frame) => frame.client_id === clientId && frame.type === 'ack')));
    socket.close();
    const stored = await server.db.query<{ client_id: string }>(
      'SELECT client_id FROM messages WHERE chat_id = $1 AND sender_id = $2 ORDER BY id',
      [chatId, anna.id],
    );
    assert.deepEqual(
      stored.map((row) => row.client_id),
      [...clientIds, impatient],
      'each message once, in the order Anna wrote them',
    );
  });

  it('cuts off a socket that piles up frames without waiting for answers', async () => {
    const anna = await signUp(server);
    const socket = await SocketProbe.open(chatSocketUrl(server, anna.token));
    for (let i = 0; i < 2_000; i += 1) socket.send({ type: 'ping' });
    assert.equal(await socket.closed(), 4029);
  });

  it('cuts off a socket that keeps sending while told to wait', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const chatId = await privateChat(server, anna, boris);
    const socket = await SocketProbe.open(chatSocketUrl(server, anna.token));
    // Well under the queue bound each time, but never waiting: a flood answered one refusal at a time.
    for (let burst = 0; burst < 20 && socket.closeCode === undefined; burst += 1) {
      for (let i = 0; i < 10; i += 1) socket.send({ type: 'send', client_id: randomUUID(), chat_id: chatId, text: 'again and again' });
      await socket.until((frames) => frames.length >= (burst + 1) * 10 || socket.closeCode !== undefined);
    }
    assert.equal(await socket.closed(), 4029);
    const refusals = socket.frames.filter((frame) => frame.error === 'rate_limited').length;
    assert.ok(refusals <= MESSAGES + 40, `answered ${refusals} refusals before cutting off`);
  });

  it('limits how often one person opens live sockets', async () => {
    const anna = await signUp(server);
    for (let i = 0; i < SOCKETS; i += 1) (await SocketProbe.open(chatSocketUrl(server, anna.token))).close();
    await assert.rejects(SocketProbe.open(chatSocketUrl(server, anna.token)), /upgrade refused: 429/);
  });

  it('limits searches and look-ups per person with 429 and Retry-After', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    for (let i = 0; i < LOOKUPS; i += 1) {
      assert.equal((await request(server, 'GET', '/chat/find?query=a', { token: anna.token })).status, 200);
    }
    // The allowance is shared by every look-up route.
    const refused = await request(server, 'GET', '/user/find?query=a', { token: anna.token });
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error, 'rate_limited');
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    assert.equal((await request(server, 'GET', '/chat/find?query=a', { token: boris.token })).status, 200, 'per person');
  });

  it('limits uploads per person', async () => {
    const anna = await signUp(server);
    for (let i = 0; i < UPLOADS; i += 1) assert.equal((await upload(server, anna)).status, 201);
    const refused = await upload(server, anna);
    assert.equal(refused.status, 429);
    assert.equal(refused.body.error, 'rate_limited');
  });
});
