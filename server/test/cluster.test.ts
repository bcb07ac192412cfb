import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createPostgresDatabase, startCluster, testDatabase, testNatsUrl, testRedisUrl, type TestServer } from './helpers/server.js';
import { SocketProbe, WAIT_MS, chatSocketUrl, codeFor, events, flowUrl, mediaTokens, pngBytes, privateChat, randomPhone, request, sendText, signUp, upload, waitFor } from './helpers/client.js';
import { startS3 } from './helpers/s3.js';
import { listening } from './helpers/process.js';
import { S3FileStorage } from '../src/modules/files/s3-storage.js';
import { makeStaff } from './helpers/staff.js';
import { MeetClient } from './helpers/meet-client.js';
import { Role } from '../src/modules/users/actor.js';
import { openDatabase } from '../src/db/index.js';
import { connect as connectNats } from 'nats';
import { migrations } from '../src/db/migrations/index.js';

// Several nodes over one PostgreSQL, linked by NATS, their limits in Redis (issue 11). PGlite is one process's
// own database, so the cluster runs in the PostgreSQL half of the suite only. Without NATS or Redis it is skipped
// with a clear line, except under CI=true, where it must run (and fails saying why).
const missing =
  process.env.CI === 'true' || testDatabase !== 'postgres'
    ? []
    : [
        ...((await listening(testNatsUrl, 4222)) ? [] : [`NATS at ${testNatsUrl} (TEST_NATS_URL)`]),
        ...((await listening(testRedisUrl, 6379)) ? [] : [`Redis at ${testRedisUrl} (TEST_REDIS_URL)`]),
      ];
const skip = testDatabase !== 'postgres' ? 'a cluster needs PostgreSQL' : missing.length > 0 ? `not running: ${missing.join(', ')}` : false;

/** A small look-up allowance, to show it is one allowance across the nodes. */
const LOOKUPS = 4;

describe('a cluster of two nodes linked by NATS', { skip }, () => {
  let cluster: Awaited<ReturnType<typeof startCluster>>;
  let nodeA: TestServer;
  let nodeB: TestServer;
  let s3: Awaited<ReturnType<typeof startS3>>;
  before(async () => {
    // Uploaded files in S3 (a local S3-compatible server of this test's own), as a cluster on several machines keeps them.
    s3 = await startS3();
    cluster = await startCluster(2, { REDIS_URL: testRedisUrl, RATE_LOOKUPS_PER_MINUTE: String(LOOKUPS), ...s3.env });
    [nodeA, nodeB] = cluster.nodes as [TestServer, TestServer];
  });
  after(async () => {
    await cluster?.close();
    await s3?.close();
  });

  it('a message sent through node A reaches the other person on node B live, once and in order', async () => {
    const anna = await signUp(nodeA, { name: 'Anna' });
    const boris = await signUp(nodeA, { name: 'Boris' });
    const chatId = await privateChat(nodeA, anna, boris);
    const borisOnB = await SocketProbe.open(flowUrl(nodeB, boris.token));
    await borisOnB.until((frames) => frames.some((frame) => frame.event_type === 'ready'));

    const texts = Array.from({ length: 20 }, (_, i) => `through A ${i}`);
    for (const text of texts) await sendText(nodeA, anna, chatId, text);
    const frames = await borisOnB.until((all) => events(all).filter((event) => event.event_type === 'text').length >= texts.length);
    const received = events(frames).filter((event) => event.event_type === 'text');
    assert.deepEqual(received.map((event) => event.additional_info.message.text), texts);
    const seqs = events(frames).map((event) => event.seq);
    assert.deepEqual(seqs, [...seqs].sort((a, b) => a - b), 'in seq order');
    assert.equal(new Set(seqs).size, seqs.length, 'no duplicates');
    borisOnB.close();
  });

  it('a node back on NATS after a loss has every node catch up: an event whose ring went nowhere reaches the socket on B', async () => {
    const anna = await signUp(nodeA, { name: 'Anna' });
    const boris = await signUp(nodeA, { name: 'Boris' });
    const chatId = await privateChat(nodeA, anna, boris);
    const borisOnB = await SocketProbe.open(flowUrl(nodeB, boris.token));
    await borisOnB.until((frames) => frames.some((frame) => frame.event_type === 'ready'));
    // Committed on node A while its link was down: in the log, rung to nobody (the NATS client drops what it
    // buffered when it reconnects).
    const [{ last_seq: seq }] = (await nodeA.db.query('UPDATE users SET last_seq = last_seq + 1 WHERE id = $1 RETURNING last_seq', [boris.id])) as [{ last_seq: number }];
    await nodeA.db.query('INSERT INTO user_events (user_id, seq, event_type, payload) VALUES ($1, $2, $3, $4)', [
      boris.id,
      seq,
      'chat-read',
      JSON.stringify({ chat_id: chatId, unread_messages: 0, unread_mentions: 0 }),
    ]);
    // Node A is back on NATS and says so (its link does this on reconnecting).
    const nats = await connectNats({ servers: testNatsUrl });
    nats.publish(`${cluster.clusterName}.catchup`);
    await nats.drain();
    const caught = await borisOnB.until((frames) => events(frames).some((event) => event.seq === seq));
    assert.equal(events(caught).filter((event) => event.seq === seq).length, 1);
    borisOnB.close();
  });

  it('a sign-in code texted through node B is in the development outbox of node A too, and signs in through A', async () => {
    const phone = randomPhone();
    assert.equal((await request(nodeB, 'POST', '/auth/send-code', { body: { phone } })).status, 200);
    let code = '';
    await waitFor(async () => {
      const outbox = await request(nodeA, 'GET', `/dev/sms?phone=${encodeURIComponent(phone)}`);
      code = outbox.status === 200 ? outbox.body.code : '';
      return code !== '';
    }, 'the code in the outbox of node A');
    assert.equal(code, await codeFor(nodeB, phone), 'the same code on both nodes');
    const signedIn = await request(nodeA, 'POST', '/auth/sign-in', { body: { phone, code } });
    assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
  });

  it('a typing signal sent through node A reaches the other person on node B (and on A), once each, without a seq', async () => {
    const anna = await signUp(nodeA, { name: 'Anna' });
    const boris = await signUp(nodeA);
    const chatId = await privateChat(nodeA, anna, boris);
    const borisOnA = await SocketProbe.open(flowUrl(nodeA, boris.token));
    const borisOnB = await SocketProbe.open(flowUrl(nodeB, boris.token));
    for (const probe of [borisOnA, borisOnB]) await probe.until((frames) => frames.some((frame) => frame.event_type === 'ready'));
    const chat = await SocketProbe.open(chatSocketUrl(nodeA, anna.token));
    chat.send({ type: 'typing', chat_id: chatId });
    for (const probe of [borisOnA, borisOnB]) {
      const frames = await probe.until((all) => all.some((frame) => frame.event_type === 'typing'));
      const typing = frames.filter((frame) => frame.event_type === 'typing');
      assert.equal(typing.length, 1);
      assert.equal(typing[0].seq, undefined);
      assert.deepEqual(typing[0].additional_info, { chat_id: chatId, user: { id: anna.id, name: 'Anna', username: null } });
    }
    chat.close();
    borisOnA.close();
    borisOnB.close();
  });

  it('each node rings only its own sockets of a person once: a person on both nodes gets every event once on each', async () => {
    const anna = await signUp(nodeB);
    const boris = await signUp(nodeB);
    const chatId = await privateChat(nodeB, anna, boris);
    const onA = await SocketProbe.open(flowUrl(nodeA, boris.token));
    const onB = await SocketProbe.open(flowUrl(nodeB, boris.token));
    await onA.until((frames) => frames.some((frame) => frame.event_type === 'ready'));
    await onB.until((frames) => frames.some((frame) => frame.event_type === 'ready'));
    await sendText(nodeA, anna, chatId, 'from A');
    await sendText(nodeB, anna, chatId, 'from B');
    for (const probe of [onA, onB]) {
      const frames = await probe.until((all) => events(all).filter((event) => event.event_type === 'text').length >= 2);
      assert.deepEqual(
        events(frames)
          .filter((event) => event.event_type === 'text')
          .map((event) => event.additional_info.message.text),
        ['from A', 'from B'],
      );
    }
    onA.close();
    onB.close();
  });

  it('a person blocked through node A is cut off on node B at once: their sockets there close with 4003', async () => {
    const admin = await signUp(nodeA, { name: 'Ada' });
    await makeStaff(nodeA, admin, Role.admin);
    const mallory = await signUp(nodeA);
    const flowOnB = await SocketProbe.open(flowUrl(nodeB, mallory.token));
    await flowOnB.until((frames) => frames.some((frame) => frame.event_type === 'ready'));
    const chatOnB = await SocketProbe.open(chatSocketUrl(nodeB, mallory.token));

    const blocked = await request(nodeA, 'PUT', '/user/block', { token: admin.token, body: { user_id: mallory.id, blocked: true } });
    assert.equal(blocked.status, 200, JSON.stringify(blocked.body));
    await waitFor(() => flowOnB.closeCode !== undefined && chatOnB.closeCode !== undefined, 'both sockets on node B to close');
    assert.deepEqual([flowOnB.closeCode, chatOnB.closeCode], [4003, 4003]);
    // And node B refuses the old token from now on (the session generation is in the database).
    assert.equal((await request(nodeB, 'GET', '/user', { token: mallory.token })).status, 401);
  });

  it('a per-person limit is one allowance across the nodes (kept in Redis): going through the other node gives no more', async () => {
    const anna = await signUp(nodeA);
    const boris = await signUp(nodeB);
    for (let i = 0; i < LOOKUPS; i += 1) {
      const node = i % 2 === 0 ? nodeA : nodeB;
      assert.equal((await request(node, 'GET', '/chat/find?query=a', { token: anna.token })).status, 200);
    }
    for (const node of [nodeA, nodeB]) {
      const refused = await request(node, 'GET', '/user/find?query=a', { token: anna.token });
      assert.deepEqual([refused.status, refused.body.error], [429, 'rate_limited'], `refused on ${node.config.nodeId}`);
    }
    assert.equal((await request(nodeB, 'GET', '/chat/find?query=a', { token: boris.token })).status, 200, 'per person');
  });

  it('a call rung through node A is answered through node B (its meeting socket forwarded to the room), media both ways, hung up through B', async () => {
    const anna = await signUp(nodeA, { name: 'Anna' });
    const boris = await signUp(nodeA, { name: 'Boris' });
    const chatId = await privateChat(nodeA, anna, boris);
    const started = await request(nodeA, 'POST', '/meet/call', { token: anna.token, body: { chat_id: chatId } });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const room = started.body.call.room_id;
    const token = async (node: TestServer, person: typeof anna) => (await request(node, 'GET', `/meet/get-token?chat_id=${chatId}`, { token: person.token })).body.token;

    const annaMeet = await MeetClient.join(nodeA, chatId, await token(nodeA, anna));
    annaMeet.startSending();
    const receiving = (id: number) => () => ['audio', 'video'].every((kind) => nodeA.app.services.media.publishing(room).get(id)?.includes(kind as 'audio'));
    await waitFor(receiving(anna.id), "node A's SFU to receive Anna", 2 * WAIT_MS);
    // Boris answers through node B: his meeting socket is piped to node A, where the room is.
    const borisMeet = await MeetClient.join(nodeB, chatId, await token(nodeB, boris));
    borisMeet.startSending();
    await waitFor(() => (borisMeet.received.get(`u${anna.id}`) ?? 0) > 5, "Boris (on B) to receive Anna's packets", 2 * WAIT_MS);
    await waitFor(receiving(boris.id), "node A's SFU to receive Boris", 2 * WAIT_MS);
    assert.equal(nodeB.app.services.media.publishing(room).size, 0, 'no room on node B');
    // Who is in the call, asked through either node: the room's node answers.
    const inCall = async (node: TestServer) => {
      const answer = await request(node, 'GET', `/meet/participants?chat_id=${chatId}`, { token: boris.token });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body.participants;
    };
    await waitFor(async () => Object.keys(await inCall(nodeA)).length === 2, 'both in the room (asked through A)');
    assert.deepEqual(await inCall(nodeB), await inCall(nodeA));
    const forwardedTwice = await request(nodeB, 'GET', `/meet/participants?chat_id=${chatId}`, { token: boris.token, headers: { 'x-messenger-forwarded': '1' } });
    assert.equal(forwardedTwice.status, 503);
    // A socket already forwarded once is never forwarded again (a NODE_URL pointing at the wrong node must not loop).
    await assert.rejects(
      SocketProbe.open(`${nodeB.wsUrl}/api/meet/room/${chatId}/websocket?token=${encodeURIComponent(await token(nodeB, boris))}`, { 'x-messenger-forwarded': '1' }),
      /upgrade refused: 503/,
    );

    // Boris hangs up through node B: the call ends in the database there, and node A closes the room.
    const hung = await SocketProbe.open(chatSocketUrl(nodeB, boris.token));
    hung.send({ type: 'hang', text: String(chatId) });
    await hung.until((frames) => frames.some((frame) => frame.type === 'hung'));
    hung.close();
    await annaMeet.socket.closed();
    await borisMeet.socket.closed();
    assert.deepEqual(annaMeet.frames('ended'), [{ reason: 'ended' }]);
    assert.deepEqual(borisMeet.frames('ended'), [{ reason: 'ended' }]);
    await waitFor(() => nodeA.app.services.media.publishing(room).size === 0, "node A's room to close");
    await annaMeet.close();
    await borisMeet.close();
  });

  it('a member removed from a group through node B leaves its call at once on node A, where the room is; deleting the group through B closes the room', async () => {
    const [owner, member, third] = [await signUp(nodeA), await signUp(nodeA), await signUp(nodeA)];
    const created = await request(nodeA, 'POST', '/chat/create', {
      token: owner.token,
      body: { chat_type: 'group', name: 'Cluster call', participants: [member.id, third.id] },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const chatId = created.body.chat.id;
    const started = await request(nodeA, 'POST', '/meet/call', { token: owner.token, body: { chat_id: chatId } });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const room = started.body.call.room_id;
    const join = async (person: typeof owner) =>
      MeetClient.join(nodeA, chatId, (await request(nodeA, 'GET', `/meet/get-token?chat_id=${chatId}`, { token: person.token })).body.token);
    const meets = [await join(owner), await join(member), await join(third)];
    const inRoom = () => Object.keys(meets[0]!.participantFrames().at(-1) ?? {}).length;
    await waitFor(() => inRoom() === 3, 'three in the room on node A');

    const removed = await request(nodeB, 'PUT', '/chat/manage-participants', {
      token: owner.token,
      body: { chat_id: chatId, actions: [{ add: false, participants: [member.id] }] },
    });
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    await meets[1]!.socket.closed();
    assert.deepEqual(meets[1]!.frames('ended'), [{ reason: 'left' }]);
    await waitFor(() => inRoom() === 2, 'two left in the room');

    assert.equal((await request(nodeB, 'DELETE', `/chat/${chatId}`, { token: owner.token })).status, 200);
    for (const meet of [meets[0]!, meets[2]!]) {
      await meet.socket.closed();
      assert.deepEqual(meet.frames('ended'), [{ reason: 'ended' }]);
    }
    await waitFor(() => nodeA.app.services.media.participants(room).size === 0, "node A's room to close");
    for (const meet of meets) await meet.close();
  });

  it('a node starting does not end the calls another node holds; a node that leaves has its calls ended by the others', async () => {
    const anna = await signUp(nodeA);
    const boris = await signUp(nodeA);
    const chatId = await privateChat(nodeA, anna, boris);
    const started = await request(nodeA, 'POST', '/meet/call', { token: anna.token, body: { chat_id: chatId } });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const callId = started.body.call.id;
    const running = async () => (await nodeA.db.query('SELECT ended_at FROM calls WHERE id = $1', [callId]))[0]?.ended_at === null;
    assert.equal(await running(), true);

    // Node B restarts (its start-up recovery runs): node A is alive, so its call goes on.
    await nodeB.restart();
    assert.equal(await running(), true, "node B's start left node A's call alone");

    // Node A goes away (its rooms, and so the call's media, with it): node B ends the call at its next heartbeat.
    await nodeA.restart(() => waitFor(async () => !(await running()), "node B to end the call of the node that left"));
    const [call] = await nodeB.db.query<{ status: string }>('SELECT status FROM calls WHERE id = $1', [callId]);
    assert.equal(call?.status, 'missed');
  });

  it('a node back from a database outage does not end the calls of nodes whose heartbeats went stale meanwhile', async () => {
    const anna = await signUp(nodeA);
    const boris = await signUp(nodeA);
    const chatId = await privateChat(nodeA, anna, boris);
    const started = await request(nodeA, 'POST', '/meet/call', { token: anna.token, body: { chat_id: chatId } });
    const callId = started.body.call.id;
    // The call's node has not said it is alive for a minute (the database was out for everybody).
    await nodeA.db.query(`INSERT INTO cluster_nodes (node_id, url, heartbeat_at) VALUES ('node-silent', 'http://127.0.0.1:9', now() - interval '1 minute')`);
    await nodeA.db.query(`UPDATE calls SET node_id = 'node-silent' WHERE id = $1`, [callId]);
    const running = async () => (await nodeA.db.query('SELECT ended_at FROM calls WHERE id = $1', [callId]))[0]?.ended_at === null;
    const calls = nodeB.app.services.calls as unknown as { beatingSince: number | null; heartbeat(): Promise<void> };

    // Node B's own heartbeats just came back: it cannot tell a dead node from one cut off as it was.
    calls.beatingSince = Date.now();
    await calls.heartbeat();
    assert.equal(await running(), true, 'a node just back judges nobody');
    // Node B has said it is alive for longer than the dead time: the silent node is dead, its call ends.
    calls.beatingSince = Date.now() - 30_000;
    await calls.heartbeat();
    assert.equal(await running(), false);
    await nodeA.db.query(`DELETE FROM cluster_nodes WHERE node_id = 'node-silent'`);
  });

  it('a file uploaded through node A is in S3: node B serves it whole and in ranges', async () => {
    assert.ok(nodeA.app.services.storage instanceof S3FileStorage);
    const anna = await signUp(nodeA);
    const data = pngBytes(70_000);
    const uploaded = await upload(nodeA, anna, { data });
    assert.equal(uploaded.status, 201, JSON.stringify(uploaded.body));
    const path = uploaded.body.file.path;
    // The media token is made on B, for a file B never saw: both come from what the nodes share.
    const token = (await mediaTokens(nodeB, anna, [path]))[path]!;
    const url = `${nodeB.url}/api/receive/${path}?token=${encodeURIComponent(token)}`;
    const whole = await fetch(url);
    assert.equal(whole.status, 200);
    assert.deepEqual(Buffer.from(await whole.arrayBuffer()), data);
    const part = await fetch(url, { headers: { range: 'bytes=100-199' } });
    assert.equal(part.status, 206);
    assert.deepEqual(Buffer.from(await part.arrayBuffer()), data.subarray(100, 200));
    assert.equal(await nodeB.app.services.storage.size(path), data.length);
  });

  it('each node reports itself healthy with its database and NATS link', async () => {
    for (const node of [nodeA, nodeB]) {
      const health = await request(node, 'GET', '/health');
      assert.equal(health.status, 200);
      assert.equal(health.body.status, 'ok');
      assert.equal(health.body.nats_connected, true);
      assert.equal(health.body.database_reachable, true);
    }
    assert.notEqual((await request(nodeA, 'GET', '/health')).body.node, (await request(nodeB, 'GET', '/health')).body.node);
  });
});

describe('nodes starting together', { skip: testDatabase !== 'postgres' ? 'a cluster needs PostgreSQL' : false }, () => {
  it('on a fresh database: every node starts, and each migration is applied once', async () => {
    const { databaseUrl, dropDatabase } = await createPostgresDatabase('msgr_start');
    try {
      // `npm run cluster` on an empty database: the nodes' migrations raced (a duplicate key in pg_type).
      const nodes = await Promise.all(Array.from({ length: 4 }, () => openDatabase({ databaseUrl })));
      const [applied] = await nodes[0]!.query<{ count: number }>('SELECT count(*)::int AS count FROM schema_migrations');
      assert.equal(applied?.count, migrations.length);
      await Promise.all(nodes.map((db) => db.close()));
    } finally {
      await dropDatabase();
    }
  });
});
