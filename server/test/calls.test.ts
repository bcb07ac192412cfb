import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { startServer, testDatabase, type TestServer } from './helpers/server.js';
import { type Person, SocketProbe, WAIT_MS, chatSocketUrl, flowUrl, nextEvent, openFlow, privateChat, request, signUp, upload, waitFor } from './helpers/client.js';
import { MeetClient } from './helpers/meet-client.js';
import { quickStaff } from './helpers/staff.js';
import { CallsService } from '../src/modules/calls/service.js';
import { MeetTokens } from '../src/security/meet-tokens.js';
import type { MediaEngine, RoomMember } from '../src/media/engine.js';

/** The ring time of the missed-call test's own server (the others keep the default, so a busy machine's slow
 * first packets never turn an answered call into a missed one). */
const SHORT_RING_SECONDS = 2;
/** The test server's reconnect window (the server holds a dropped person's place 10 s longer). */
const RECONNECT_SECONDS = 10;

async function group(server: TestServer, owner: Person, members: Person[]): Promise<number> {
  const created = await request(server, 'POST', '/chat/create', {
    token: owner.token,
    body: { chat_type: 'group', name: 'Call group', participants: members.map((member) => member.id) },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body.chat.id;
}

async function meetToken(server: TestServer, person: Person, chatId: number): Promise<any> {
  const got = await request(server, 'GET', `/meet/get-token?chat_id=${chatId}`, { token: person.token });
  assert.equal(got.status, 200, JSON.stringify(got.body));
  return got.body;
}

async function call(server: TestServer, person: Person, chatId: number): Promise<any> {
  const started = await request(server, 'POST', '/meet/call', { token: person.token, body: { chat_id: chatId } });
  assert.equal(started.status, 200, JSON.stringify(started.body));
  return started.body;
}

async function join(server: TestServer, person: Person, chatId: number): Promise<MeetClient> {
  return MeetClient.join(server, chatId, (await meetToken(server, person, chatId)).token);
}

/** Hangs up over the chat socket, as the client does (spec §7), and returns the answer frame. */
async function hang(server: TestServer, person: Person, chatId: number, callId?: number): Promise<any> {
  const socket = await SocketProbe.open(chatSocketUrl(server, person.token));
  try {
    socket.send({ type: 'hang', text: String(chatId), ...(callId === undefined ? {} : { call_id: callId }) });
    const frames = await socket.until((all) => all.some((frame) => frame.type === 'hung' || frame.type === 'error'));
    return frames.find((frame) => frame.type === 'hung' || frame.type === 'error');
  } finally {
    socket.close();
  }
}

/**
 * Media through the SFU waits for ICE, DTLS and the first packets: on a busy 2-core machine (another build beside
 * the suite) that took more than 10 s. Every wait here polls its condition up to this deadline.
 */
const MEDIA_WAIT_MS = 2 * WAIT_MS;

function until(predicate: () => boolean, what = 'a condition', timeoutMs = MEDIA_WAIT_MS): Promise<void> {
  return waitFor(predicate, what, timeoutMs);
}

/**
 * A calls service of the test server's own, through a media engine still loading (as the SFU does on first use):
 * its joins answer when the test calls `loaded`; `left` lists who left its rooms.
 */
function callsThroughLoadingEngine(server: TestServer): { calls: CallsService; loaded: () => void; left: number[] } {
  let loaded!: () => void;
  const loading = new Promise<void>((resolve) => (loaded = resolve));
  const left: number[] = [];
  const engine: MediaEngine = {
    async join(_room, userId) {
      await loading;
      return { userId, streamId: `u${userId}`, handle: async () => undefined, leave: () => void left.push(userId) } satisfies RoomMember;
    },
    participants: () => new Map(),
    publishing: () => new Map(),
    closeRoom: () => undefined,
    close: () => undefined,
  };
  const services = server.app.services;
  const calls = new CallsService(services.db, services.events, engine, new MeetTokens(services.secrets.meetKey), services.config.calls, server.app.log, services.messageWriter);
  return { calls, loaded, left };
}

describe('calls', () => {
  let server: TestServer;
  const secret = 'turn-test-secret';
  before(async () => {
    server = await startServer({
      CALL_MAX_PARTICIPANTS: '3',
      CALL_RECONNECT_SECONDS: String(RECONNECT_SECONDS),
      TURN_URLS: 'stun:127.0.0.1:3478,turn:127.0.0.1:3478?transport=udp',
      TURN_SECRET: secret,
      TURN_TTL_SECONDS: '600',
    });
  });
  after(() => server.close());

  it('a private call: ringing, answering, media both ways through the SFU, hang-up for both, history', async () => {
    const anna = await signUp(server, { name: 'Anna' });
    const boris = await signUp(server, { name: 'Boris' });
    const chatId = await privateChat(server, anna, boris);
    const borisFlow = await openFlow(server, boris);
    const annaFlow = await openFlow(server, anna);

    const started = await call(server, anna, chatId);
    assert.equal(started.joined, false);
    assert.equal(started.busy, false);
    const ringing = await nextEvent(borisFlow, (event) => event.event_type === 'call');
    assert.equal(ringing.additional_info.chat_id, chatId);
    assert.equal(ringing.additional_info.user.id, anna.id);
    assert.equal(ringing.additional_info.chat_type, 'private');
    assert.equal(ringing.additional_info.message.type, 'call');
    assert.equal(ringing.additional_info.room_id, started.call.room_id);

    const annaMeet = await join(server, anna, chatId);
    annaMeet.startSending();
    // Boris joins once the SFU receives Anna — her audio, and the video m-line werift's client also feeds — so his
    // first offer already carries all of her. (werift as a client mishandles some renegotiations: one that came
    // while ICE was still checking left Boris connected but receiving nothing, on a busy machine. The way back,
    // which needs one on Anna's side, is left to the Chromium tests, where browsers renegotiate.)
    const room = started.call.room_id;
    const receiving = (person: Person) => () => ['audio', 'video'].every((kind) => server.app.services.media.publishing(room).get(person.id)?.includes(kind as 'audio'));
    await until(receiving(anna), "the SFU to receive Anna's media");
    const borisMeet = await join(server, boris, chatId);
    borisMeet.startSending();
    // Boris hears Anna, in the stream named after her; the SFU receives Boris.
    await until(() => (borisMeet.received.get(`u${anna.id}`) ?? 0) > 5, "Boris to receive Anna's packets");
    assert.deepEqual([...borisMeet.received.keys()], [`u${anna.id}`]);
    // Joining a room where Anna publishes takes one offer (a second one used to follow the answer, mid-ICE).
    assert.equal(borisMeet.frames('offer').length, 1);
    await until(receiving(boris), "the SFU to receive Boris's media");
    const participants = await request(server, 'GET', `/meet/participants?chat_id=${chatId}`, { token: boris.token });
    assert.deepEqual(participants.body.participants, { [anna.id]: `u${anna.id}`, [boris.id]: `u${boris.id}` });
    assert.deepEqual(annaMeet.participantFrames().at(-1), { [anna.id]: `u${anna.id}`, [boris.id]: `u${boris.id}` });
    const callId = await request(server, 'GET', `/chat/call-id?chat_id=${chatId}`, { token: boris.token });
    assert.equal(callId.body.call_id, started.call.id);

    assert.deepEqual(await hang(server, boris, chatId), { type: 'hung', chat_id: chatId });
    // A hang-up with no call left is refused, naming the chat (so a client knows which hang-up it answers).
    const refused = await hang(server, anna, chatId);
    assert.deepEqual([refused.type, refused.chat_id, refused.client_id, refused.status], ['error', chatId, undefined, 404]);
    // Naming the call that ended, the same hang-up (repeated after a lost answer) is answered and ends nothing.
    assert.deepEqual(await hang(server, boris, chatId, started.call.id), { type: 'hung', chat_id: chatId });
    for (const flow of [annaFlow, borisFlow]) {
      const ended = await nextEvent(flow, (event) => event.event_type === 'hang');
      assert.equal(ended.additional_info.reason, 'ended');
      assert.equal(ended.additional_info.call_id, started.call.id);
      // The call's message now tells the outcome.
      assert.equal(ended.additional_info.message.meta.call_status, 'ended');
      assert.equal(typeof ended.additional_info.message.meta.duration_seconds, 'number');
    }
    await annaMeet.socket.closed();
    assert.deepEqual(annaMeet.frames('ended'), [{ reason: 'ended' }]);
    await borisMeet.socket.closed();
    await annaMeet.close();
    await borisMeet.close();

    const annaHistory = await request(server, 'GET', '/chat/call/history', { token: anna.token });
    const borisHistory = await request(server, 'GET', '/chat/call/history', { token: boris.token });
    assert.equal(annaHistory.body.calls[0].direction, 'outgoing');
    assert.equal(annaHistory.body.calls[0].connected, true);
    assert.equal(borisHistory.body.calls[0].direction, 'incoming');
    assert.equal(borisHistory.body.calls[0].status, 'ended');
    assert.ok(borisHistory.body.calls[0].duration_seconds >= 0);
    // No call runs any more.
    assert.equal((await request(server, 'GET', `/meet/get-token?chat_id=${chatId}`, { token: anna.token })).status, 404);
    annaFlow.close();
    borisFlow.close();
  });

  it('a dropped connection keeps its place: back after more than 5 s, the call goes on; nobody back, it ends', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const chatId = await privateChat(server, anna, boris);
    const annaFlow = await openFlow(server, anna);
    const started = await call(server, anna, chatId);
    const ticket = await meetToken(server, anna, chatId);
    // The browser retries for as long as the server says it holds the place.
    assert.equal(ticket.reconnect_seconds, RECONNECT_SECONDS);
    const annaMeet = await MeetClient.join(server, chatId, ticket.token);
    const borisMeet = await join(server, boris, chatId);
    await until(() => Object.keys(annaMeet.participantFrames().at(-1) ?? {}).length === 2, 'both in the room');

    // Anna's network drops: Boris is told she is reconnecting (before the room shows her gone); then his drops too.
    await annaMeet.drop();
    await borisMeet.socket.until((frames) => frames.some((frame) => frame.event === 'reconnecting' && anna.id in JSON.parse(frame.data)));
    const events = borisMeet.socket.frames.map((frame) => frame.event);
    assert.ok(events.lastIndexOf('reconnecting') < events.lastIndexOf('participants'), events.join());
    const left = borisMeet.frames('reconnecting').at(-1)[anna.id];
    assert.ok(left > RECONNECT_SECONDS && left <= RECONNECT_SECONDS + 10, String(left));
    const droppedAt = Date.now();
    await borisMeet.drop();

    // Both come back after longer than the old 5 s: the same call, both in its room again.
    await until(() => Date.now() - droppedAt > 6000, 'six seconds to pass');
    const annaBack = await join(server, anna, chatId);
    const borisBack = await join(server, boris, chatId);
    await until(() => Object.keys(annaBack.participantFrames().at(-1) ?? {}).length === 2, 'both back in the room');
    await borisBack.socket.until((frames) => frames.some((frame) => frame.event === 'reconnecting' && Object.keys(JSON.parse(frame.data)).length === 0));
    assert.equal((await request(server, 'GET', `/chat/call-id?chat_id=${chatId}`, { token: anna.token })).body.call_id, started.call.id);
    assert.deepEqual(annaFlow.frames.filter((frame) => frame.event_type === 'hang'), []);

    // Anna drops again and Boris leaves on purpose: the call waits for Anna, then ends when her place is given up.
    await annaBack.drop();
    await borisBack.socket.until((frames) => frames.filter((frame) => frame.event === 'reconnecting' && anna.id in JSON.parse(frame.data)).length === 1);
    const secondDrop = Date.now();
    await borisBack.close();
    const ended = await nextEvent(annaFlow, (event) => event.event_type === 'hang', MEDIA_WAIT_MS);
    assert.equal(ended.additional_info.reason, 'ended');
    assert.ok(Date.now() - secondDrop >= RECONNECT_SECONDS * 1000, 'the place was held for the reconnect window');
    annaFlow.close();
  });

  it('camera off and on: the browser says so on the meeting socket, and everyone in the call is told', async () => {
    const people = await Promise.all([1, 2, 3].map(() => signUp(server)));
    const [anna, boris, carl] = people as [Person, Person, Person];
    const chatId = await group(server, anna, [boris, carl]);
    await call(server, anna, chatId);
    const annaMeet = await join(server, anna, chatId);
    const borisMeet = await join(server, boris, chatId);
    const said = (meet: MeetClient, states: Record<string, boolean>) =>
      meet.socket.until((frames) => frames.some((frame) => frame.event === 'video' && frame.data === JSON.stringify(states)));
    annaMeet.socket.send({ event: 'video', data: JSON.stringify({ on: true }) });
    await said(borisMeet, { [anna.id]: true });
    annaMeet.socket.send({ event: 'video', data: JSON.stringify({ on: false }) });
    await said(borisMeet, { [anna.id]: false });
    await said(annaMeet, { [anna.id]: false });
    // Someone who joins later learns it at once.
    const carlMeet = await join(server, carl, chatId);
    await said(carlMeet, { [anna.id]: false });
    // A state that is no boolean is refused.
    borisMeet.socket.send({ event: 'video', data: JSON.stringify({ on: 'yes' }) });
    await borisMeet.socket.until((frames) => frames.some((frame) => frame.event === 'error'));
    for (const meet of [annaMeet, borisMeet, carlMeet]) await meet.close();
  });

  it('nobody answers within the ring time: the call is missed for everyone', async () => {
    const short = await startServer({ CALL_RING_SECONDS: String(SHORT_RING_SECONDS) });
    try {
      const anna = await signUp(short);
      const boris = await signUp(short);
      const chatId = await privateChat(short, anna, boris);
      const borisFlow = await openFlow(short, boris);
      await call(short, anna, chatId);
      const annaMeet = await join(short, anna, chatId);
      const missed = await nextEvent(borisFlow, (event) => event.event_type === 'hang');
      assert.equal(missed.additional_info.reason, 'missed');
      assert.deepEqual(missed.additional_info.message.meta, { call_status: 'missed', duration_seconds: null });
      await annaMeet.socket.closed();
      await annaMeet.close();
      const history = await request(short, 'GET', '/chat/call/history', { token: boris.token });
      assert.equal(history.body.calls[0].status, 'missed');
      assert.equal(history.body.calls[0].connected, false);
      borisFlow.close();
    } finally {
      await short.close();
    }
  });

  it('a declined private call ends: call-rejected to the caller, hang to both', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server, { name: 'Boris' });
    const chatId = await privateChat(server, anna, boris);
    const annaFlow = await openFlow(server, anna);
    await call(server, anna, chatId);
    const rejected = await request(server, 'POST', '/meet/reject', { token: boris.token, body: { chat_id: chatId } });
    assert.deepEqual(rejected.body, { rejected: true });
    const notice = await nextEvent(annaFlow, (event) => event.event_type === 'call-rejected');
    assert.equal(notice.additional_info.user.id, boris.id);
    const ended = await nextEvent(annaFlow, (event) => event.event_type === 'hang');
    assert.equal(ended.additional_info.reason, 'rejected');
    annaFlow.close();
    // Boris calls back; a hang-up of Anna's first call that arrives only now (sent again after a lost answer) names
    // that call, and the new one goes on.
    const again = await call(server, boris, chatId);
    assert.deepEqual(await hang(server, anna, chatId, ended.additional_info.call_id), { type: 'hung', chat_id: chatId });
    const running = await request(server, 'GET', `/chat/call-id?chat_id=${chatId}`, { token: anna.token });
    assert.equal(running.body.call_id, again.call.id);
  });

  it('answering stops the ring on the callee\'s other tabs: call-answered to them, once, and to nobody else', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const chatId = await privateChat(server, anna, boris);
    const [annaFlow, borisFlow] = [await openFlow(server, anna), await openFlow(server, boris)];
    const started = await call(server, anna, chatId);
    await nextEvent(borisFlow, (event) => event.event_type === 'call');
    const annaMeet = await join(server, anna, chatId);
    let borisMeet = await join(server, boris, chatId);
    const answered = await nextEvent(borisFlow, (event) => event.event_type === 'call-answered');
    assert.deepEqual(answered.additional_info, { chat_id: chatId, call_id: started.call.id });
    // Back after a drop is not a second answer.
    await borisMeet.drop();
    await annaMeet.socket.until((frames) => frames.some((frame) => frame.event === 'reconnecting' && boris.id in JSON.parse(frame.data)));
    borisMeet = await join(server, boris, chatId);
    // Sent by the new connection once its join is done (the event, had there been one, was written before).
    await until(() => Object.keys(borisMeet.participantFrames().at(-1) ?? {}).length === 2, 'Boris back');
    await annaMeet.close();
    await borisMeet.close();
    for (const flow of [annaFlow, borisFlow]) await nextEvent(flow, (event) => event.event_type === 'hang');
    const answers = (flow: SocketProbe) => flow.frames.filter((frame) => frame.event_type === 'call-answered').length;
    assert.equal(answers(borisFlow), 1);
    assert.equal(answers(annaFlow), 0, 'the caller rang nowhere');
    annaFlow.close();
    borisFlow.close();
  });

  it('a decline from another tab of the callee, once the call is answered, leaves the call going', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const chatId = await privateChat(server, anna, boris);
    await call(server, anna, chatId);
    const meets = [await join(server, anna, chatId), await join(server, boris, chatId)];
    await until(() => Object.keys(meets[0]!.participantFrames().at(-1) ?? {}).length === 2, 'both in the room');
    // Boris's other tab still rang; he declines there to stop it.
    const declined = await request(server, 'POST', '/meet/reject', { token: boris.token, body: { chat_id: chatId } });
    assert.equal(declined.status, 200);
    assert.equal((await request(server, 'GET', `/chat/call-id?chat_id=${chatId}`, { token: anna.token })).status, 200, 'the call goes on');
    assert.equal(meets[0]!.frames('ended').length, 0);
    for (const meet of meets) await meet.close();
  });

  it('whoever started a group call others answered is free for another call once out of it', async () => {
    const [anna, boris, carl, dan] = [await signUp(server), await signUp(server), await signUp(server), await signUp(server)];
    const groupId = await group(server, anna, [boris, carl]);
    await call(server, anna, groupId);
    const meets = [await join(server, boris, groupId), await join(server, carl, groupId)];
    await until(() => Object.keys(meets[0]!.participantFrames().at(-1) ?? {}).length === 2, 'two in the room');
    // Anna is not in the room (she never joined, or left): she may call Dan, and Dan her.
    const withDan = await privateChat(server, anna, dan);
    const started = await call(server, anna, withDan);
    assert.equal(started.busy, false);
    assert.equal((await hang(server, anna, withDan)).type, 'hung');
    const back = await call(server, dan, withDan);
    assert.equal(back.busy, false, 'Anna is not busy');
    assert.equal((await hang(server, dan, withDan)).type, 'hung');
    for (const meet of meets) await meet.close();
  });

  // On PGlite the database runs in this process, on its clock: a node's clock cannot be off from it there.
  it('a call whose message expired while it rang ends without showing that message again', { skip: testDatabase !== 'postgres' }, async () => {
    const anna = await signUp(server);
    const boris = await signUp(server, { name: 'Boris' });
    const chatId = await privateChat(server, anna, boris);
    const annaFlow = await openFlow(server, anna);
    const started = await call(server, anna, chatId);
    // The chat's auto-delete time passed during the call, by the database's clock (the one its sweeper goes by),
    // while this node's own clock runs an hour behind (the server runs in this process): by the node's clock the
    // message would still be there.
    await server.db.query(`UPDATE messages SET expires_at = now() - interval '1 second' WHERE id = (SELECT message_id FROM calls WHERE id = $1)`, [
      started.call.id,
    ]);
    const realNow = Date.now;
    Date.now = () => realNow() - 3_600_000;
    try {
      await request(server, 'POST', '/meet/reject', { token: boris.token, body: { chat_id: chatId } });
    } finally {
      Date.now = realNow;
    }
    const ended = await nextEvent(annaFlow, (event) => event.event_type === 'hang' && event.additional_info.call_id === started.call.id);
    assert.equal(ended.additional_info.message, null);
    annaFlow.close();
  });

  it('one call at a time: a busy callee ends the new call at once; a caller already in a call is refused', async () => {
    const [anna, boris, carl] = await Promise.all([signUp(server), signUp(server), signUp(server)]);
    const borisCarl = await privateChat(server, boris!, carl!);
    const annaBoris = await privateChat(server, anna!, boris!);
    const annaCarl = await privateChat(server, anna!, carl!);
    await call(server, boris!, borisCarl);
    const borisMeet = await join(server, boris!, borisCarl);
    const carlMeet = await join(server, carl!, borisCarl);

    const busy = await call(server, anna!, annaBoris);
    assert.equal(busy.busy, true);
    const history = await request(server, 'GET', '/chat/call/history', { token: anna!.token });
    assert.equal(history.body.calls[0].status, 'busy');
    // Boris, in his call, cannot start another one.
    const second = await request(server, 'POST', '/meet/call', { token: boris!.token, body: { chat_id: annaBoris } });
    assert.equal(second.status, 409);
    assert.equal(second.body.message, 'You cannot make two or more calls at the same time');
    // Anna is free: her call to Carl (who is busy too) is busy as well, not refused.
    assert.equal((await call(server, anna!, annaCarl)).busy, true);

    await borisMeet.close();
    await carlMeet.close();
  });

  it('a group call: people join and leave; the room holds CALL_MAX_PARTICIPANTS; the last one out ends it', async () => {
    const people = await Promise.all([1, 2, 3, 4].map(() => signUp(server)));
    const [owner, second, third, fourth] = people as [Person, Person, Person, Person];
    const chatId = await group(server, owner, [second, third, fourth]);
    const started = await call(server, owner, chatId);
    // Calling a chat that has a call running joins it.
    const again = await call(server, second, chatId);
    assert.equal(again.joined, true);
    assert.equal(again.call.id, started.call.id);

    const meets = [await join(server, owner, chatId), await join(server, second, chatId), await join(server, third, chatId)];
    await until(() => Object.keys(meets[0]!.participantFrames().at(-1) ?? {}).length === 3, 'three in the room');
    const full = await MeetClient.join(server, chatId, (await meetToken(server, fourth, chatId)).token);
    assert.equal(await full.socket.closed(), 4009);
    assert.equal(full.frames('full').length, 1);
    await full.close();

    // Leaving a group call over the chat socket leaves the room only.
    assert.equal((await hang(server, third, chatId)).type, 'hung');
    await meets[2]!.socket.closed();
    await meets[2]!.close();
    await until(() => Object.keys(meets[0]!.participantFrames().at(-1) ?? {}).length === 2, 'two left in the room');
    assert.equal((await request(server, 'GET', `/chat/call-id?chat_id=${chatId}`, { token: owner.token })).status, 200);

    const flow = await openFlow(server, owner);
    await meets[0]!.close();
    await meets[1]!.close();
    const ended = await nextEvent(flow, (event) => event.event_type === 'hang');
    assert.equal(ended.additional_info.reason, 'ended');
    flow.close();
  });

  it('a member removed from a group or leaving it is out of its call at once; deleting the group ends the call', async () => {
    const people = await Promise.all([1, 2, 3].map(() => signUp(server)));
    const [owner, second, third] = people as [Person, Person, Person];
    const chatId = await group(server, owner, [second, third]);
    const { call: started } = await call(server, owner, chatId);
    const [ownerMeet, secondMeet, thirdMeet] = [await join(server, owner, chatId), await join(server, second, chatId), await join(server, third, chatId)];
    await until(() => Object.keys(ownerMeet.participantFrames().at(-1) ?? {}).length === 3, 'three in the room');
    const leftAt = async (person: Person) =>
      (await server.app.services.db.query<{ left_at: Date | null }>('SELECT left_at FROM call_participants WHERE call_id = $1 AND user_id = $2', [started.id, person.id]))[0]?.left_at;

    // The owner removes the third person from the group: their meeting socket is told and closed, the others see
    // two in the room, and the token they still hold no longer opens it.
    const removed = await request(server, 'PUT', '/chat/manage-participants', {
      token: owner.token,
      body: { chat_id: chatId, actions: [{ add: false, participants: [third.id] }] },
    });
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    await thirdMeet.socket.closed();
    assert.deepEqual(thirdMeet.frames('ended').at(-1), { reason: 'left' });
    await until(() => Object.keys(ownerMeet.participantFrames().at(-1) ?? {}).length === 2, 'two left in the room');
    assert.ok(!(String(third.id) in ownerMeet.participantFrames().at(-1)!));
    assert.notEqual(await leftAt(third), null);
    await thirdMeet.close();

    // The second person leaves the group: out of the call too, which goes on for the owner alone.
    assert.equal((await request(server, 'DELETE', `/chat/${chatId}`, { token: second.token })).status, 200);
    await secondMeet.socket.closed();
    assert.deepEqual(secondMeet.frames('ended').at(-1), { reason: 'left' });
    await until(() => Object.keys(ownerMeet.participantFrames().at(-1) ?? {}).length === 1, 'the owner alone in the room');
    await secondMeet.close();

    // The owner deletes the group: the call goes with it, and its room closes.
    assert.equal((await request(server, 'DELETE', `/chat/${chatId}`, { token: owner.token })).status, 200);
    await ownerMeet.socket.closed();
    assert.deepEqual(ownerMeet.frames('ended').at(-1), { reason: 'ended' });
    assert.equal(server.app.services.media.participants(started.room_id).size, 0, 'nobody left in the room');
    await ownerMeet.close();
  });

  it('a send refused while a hang-up before it still ends its call is answered, and the server lives on', async () => {
    const [anna, boris, carl] = [await signUp(server), await signUp(server), await signUp(server)];
    const chatId = await privateChat(server, anna, boris);
    const notMine = await privateChat(server, boris, carl);
    await call(server, anna, chatId);
    const socket = await SocketProbe.open(chatSocketUrl(server, anna.token));
    try {
      // The refusal comes back from the writer before the hang-up's transaction ends: its answer waits in line.
      socket.send({ type: 'hang', text: String(chatId) });
      socket.send({ type: 'send', chat_id: notMine, client_id: '00000000-0000-4000-8000-0000000000a1', text: 'not my chat' });
      const frames = await socket.until((all) => all.some((frame) => frame.type === 'error' && frame.client_id));
      assert.ok(frames.some((frame) => frame.type === 'hung'));
      assert.equal(frames.find((frame) => frame.type === 'error')?.status, 404);
    } finally {
      socket.close();
    }
    assert.equal((await request(server, 'GET', '/health')).status, 200);
  });

  it('the meeting socket opens only with a valid meeting token of that chat, while its call runs', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const chatId = await privateChat(server, anna, boris);
    const otherChat = await privateChat(server, anna, await signUp(server));
    await call(server, anna, chatId);
    const { token } = await meetToken(server, boris, chatId);
    const refused = async (url: string) => SocketProbe.open(url).then(
      (probe) => {
        probe.close();
        return 101;
      },
      (error: Error) => Number(/(\d{3})$/.exec(error.message)?.[1]),
    );
    const base = `${server.wsUrl}/api/meet/room`;
    assert.equal(await refused(`${base}/${otherChat}/websocket?token=${token}`), 403, 'token of another chat');
    // One character in the middle of the signature: the last one carries bits that decoding ignores, so changing
    // the end could leave the signature as it was (it did, once in about a thousand runs).
    const middle = token.length - 20;
    const tampered = `${token.slice(0, middle)}${token[middle] === 'A' ? 'B' : 'A'}${token.slice(middle + 1)}`;
    assert.equal(await refused(`${base}/${chatId}/websocket?token=${tampered}`), 401, 'tampered token');
    assert.equal(await refused(`${base}/${chatId}/websocket?token=${anna.token}`), 401, 'an access token is no meeting token');
    assert.equal(await refused(`${base}/${chatId}/websocket`), 400, 'no token');

    // Bad frames get an error and change nothing.
    const meet = await MeetClient.join(server, chatId, token);
    meet.socket.send('not json');
    meet.socket.send({ event: 'answer', data: '{"type":"offer"}' });
    await meet.socket.until((frames) => frames.filter((frame) => frame.event === 'error').length === 2);
    assert.equal(meet.socket.closeCode, undefined);

    assert.equal((await hang(server, anna, chatId)).type, 'hung');
    await meet.socket.closed();
    await meet.close();
    assert.equal(await refused(`${base}/${chatId}/websocket?token=${token}`), 404, 'the call has ended');
  });

  it('the meeting socket answers frames outside the contract with error and stays open', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const chatId = await privateChat(server, anna, boris);
    await call(server, anna, chatId);
    const { token } = await meetToken(server, anna, chatId);
    const socket = await SocketProbe.open(`${server.wsUrl}/api/meet/room/${chatId}/websocket?token=${encodeURIComponent(token)}`);
    const outside: unknown[] = [
      'null',
      { event: 'ping', data: '{}', extra: true },
      { event: 'candidate', data: JSON.stringify({ candidate: 'candidate:1 1 udp 2130706431 127.0.0.1 9 typ host', sdpMid: '0', extra: true }) },
      { event: 'video', data: JSON.stringify({ on: 'true' }) },
      { event: 'hello', data: '{}' },
    ];
    for (const frame of outside) socket.send(frame);
    socket.send({ event: 'ping', data: '{}' });
    // Frames are answered in order: the pong comes after an error for each of them.
    const frames = await socket.until((all) => all.some((frame) => frame.event === 'pong'));
    const answers = frames.filter((frame) => frame.event === 'error' || frame.event === 'pong');
    assert.deepEqual(
      answers.map((frame) => ({ event: frame.event, data: JSON.parse(frame.data) })),
      [...outside.map(() => ({ event: 'error', data: { message: 'cannot parse message' } })), { event: 'pong', data: {} }],
    );
    assert.equal(socket.closeCode, undefined, 'the socket stays open');

    assert.equal((await hang(server, anna, chatId)).type, 'hung');
    assert.equal(await socket.closed(), 1000);
  });

  it('meeting tokens come with STUN and time-limited TURN credentials (TURN REST API)', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const chatId = await privateChat(server, anna, boris);
    await call(server, anna, chatId);
    const { ice_servers: servers } = await meetToken(server, anna, chatId);
    assert.deepEqual(servers[0], { urls: ['stun:127.0.0.1:3478'] });
    const turn = servers[1];
    assert.deepEqual(turn.urls, ['turn:127.0.0.1:3478?transport=udp']);
    const [expiry, userId] = turn.username.split(':').map(Number);
    assert.equal(userId, anna.id);
    assert.ok(Math.abs(expiry - (Date.now() / 1000 + 600)) < 5);
    assert.equal(turn.credential, createHmac('sha1', secret).update(turn.username).digest('base64'));
    await hang(server, anna, chatId);
  });

  it('recording: admins switch it on per chat; participants are told and upload audio chunks of that call only', async () => {
    const admin = await quickStaff(server, 2, 'Admin');
    const anna = await signUp(server);
    const boris = await signUp(server);
    const chatId = await privateChat(server, anna, boris);
    assert.equal((await request(server, 'PUT', '/chat/recording', { token: anna.token, body: { chat_id: chatId, enabled: true } })).status, 403);
    const switched = await request(server, 'PUT', '/chat/recording', { token: admin.token, body: { chat_id: chatId, enabled: true } });
    assert.deepEqual(switched.body, { chat_id: chatId, recording: true });
    const read = (token: string, id = chatId) => request(server, 'GET', `/chat/recording?chat_id=${id}`, { token });
    assert.deepEqual((await read(admin.token)).body, { chat_id: chatId, recording: true });
    assert.equal((await read(anna.token)).status, 403);
    assert.equal((await read(admin.token, chatId + 100000)).status, 404);

    const started = await call(server, anna, chatId);
    const meet = await join(server, anna, chatId);
    await meet.socket.until((frames) => frames.some((frame) => frame.event === 'record_audio'));
    assert.deepEqual(meet.frames('record_audio'), [{ message_id: started.call.message_id }]);

    const webm = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(100, 1)]);
    const path = (messageId: number) => `/file/upload/meet-audio?chat_id=${chatId}&message_id=${messageId}`;
    const stored = await upload(server, anna, { name: 'call.webm', type: 'audio/webm', data: webm }, 'file', path(started.call.message_id));
    assert.equal(stored.status, 201, JSON.stringify(stored.body));
    assert.equal(stored.body.file.mime, 'audio/webm');
    // Boris never joined; a picture is no recording; another message is no call.
    assert.equal((await upload(server, boris, { type: 'audio/webm', data: webm }, 'file', path(started.call.message_id))).status, 403);
    assert.equal((await upload(server, anna, {}, 'file', path(started.call.message_id))).status, 400);
    assert.equal((await upload(server, anna, { type: 'audio/webm', data: webm }, 'file', path(started.call.message_id + 1000))).status, 403);
    const recordings = await server.db.query<{ file_path: string }>('SELECT file_path FROM call_recordings WHERE call_id = $1', [started.call.id]);
    assert.deepEqual(recordings.map((row) => row.file_path), [stored.body.file.path]);
    // Stored by call, where admins find it in the file tree.
    assert.match(stored.body.file.path, new RegExp(`^recordings/${chatId}/${started.call.message_id}/[0-9a-f]{32}\\.webm$`));
    const tree = await request(server, 'GET', `/file/tree?path=recordings/${chatId}/${started.call.message_id}`, { token: admin.token });
    assert.equal(tree.status, 200);
    assert.deepEqual(tree.body.entries.map((entry: { path: string }) => entry.path), [stored.body.file.path]);

    await meet.close();
  });

  it('a join that waited for the media engine (it loads on first use) leaves a call that ended meanwhile', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const chatId = await privateChat(server, anna, boris);
    await call(server, anna, chatId);
    const { calls, loaded, left } = callsThroughLoadingEngine(server);
    const claims = await calls.authorizeSocket((await meetToken(server, anna, chatId)).token, chatId);
    const joining = calls.connect(claims, () => undefined, () => undefined);
    // Anna hangs up while her meeting socket's join waits.
    assert.equal((await hang(server, anna, chatId)).type, 'hung');
    loaded();
    await assert.rejects(joining, (error: any) => error.code === 'call_ended');
    assert.deepEqual(left, [anna.id], 'out of the room the ended call left behind');
    const recorded = await server.app.services.db.query<{ left_at: Date | null }>(
      'SELECT left_at FROM call_participants WHERE call_id = $1 AND user_id = $2',
      [claims.callId, anna.id],
    );
    assert.ok(recorded.every((row) => row.left_at !== null), 'not recorded as in the ended call');
  });

  it('a join that waited for the media engine is refused when its person was removed from the group meanwhile', async () => {
    const [owner, member] = [await signUp(server), await signUp(server)];
    const chatId = await group(server, owner, [member]);
    await call(server, owner, chatId);
    const { calls, loaded, left } = callsThroughLoadingEngine(server);
    const claims = await calls.authorizeSocket((await meetToken(server, member, chatId)).token, chatId);
    const joining = calls.connect(claims, () => undefined, () => undefined);
    const removed = await request(server, 'PUT', '/chat/manage-participants', {
      token: owner.token,
      body: { chat_id: chatId, actions: [{ add: false, participants: [member.id] }] },
    });
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    loaded();
    await assert.rejects(joining, (error: any) => error.code === 'call_ended');
    assert.deepEqual(left, [member.id], 'out of the room it was let into');
    const recorded = await server.app.services.db.query('SELECT 1 FROM call_participants WHERE call_id = $1 AND user_id = $2', [claims.callId, member.id]);
    assert.equal(recorded.length, 0, 'never recorded as in the call');
  });

  it('calls a previous process left running end when the server starts again', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const chatId = await privateChat(server, anna, boris);
    const started = await call(server, anna, chatId);
    await server.restart();
    // From the start of Boris's log: the event was written while nobody listened.
    const flow = await SocketProbe.open(flowUrl(server, boris.token, 0));
    const ended = await nextEvent(flow, (event) => event.event_type === 'hang' && event.additional_info.call_id === started.call.id);
    assert.equal(ended.additional_info.reason, 'missed');
    flow.close();
  });
});
