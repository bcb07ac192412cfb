import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startServer, type TestServer } from './helpers/server.js';
import { SocketProbe, chatSocketUrl, openFlow, privateChat, request, signUp, type Person } from './helpers/client.js';

const typingFrames = (flow: SocketProbe) => flow.frames.filter((frame) => frame.event_type === 'typing');

/** Sends frames on a fresh chat socket and returns once the server has handled them all (a ping answered last). */
async function sendOnChatSocket(server: TestServer, person: Person, ...frames: Array<Record<string, unknown>>): Promise<any[]> {
  const socket = await SocketProbe.open(chatSocketUrl(server, person.token));
  try {
    for (const frame of frames) socket.send(frame);
    socket.send({ type: 'ping' });
    return (await socket.until((all) => all.some((frame) => frame.type === 'pong'))).filter((frame) => frame.type !== 'pong');
  } finally {
    socket.close();
  }
}

describe('typing signals', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  it('reach the other person of a private chat live, without a seq, and nobody else; nothing is stored', async () => {
    const anna = await signUp(server, { name: 'Anna' });
    const boris = await signUp(server);
    const carol = await signUp(server);
    const chatId = await privateChat(server, anna, boris);
    const [annaFlow, borisFlow, carolFlow] = await Promise.all([openFlow(server, anna), openFlow(server, boris), openFlow(server, carol)]);

    const answers = await sendOnChatSocket(server, anna, { type: 'typing', chat_id: chatId });
    assert.deepEqual(answers, [], 'a signal that went out is not answered');
    await borisFlow.until(() => typingFrames(borisFlow).length === 1);
    assert.deepEqual(typingFrames(borisFlow)[0], {
      event_type: 'typing',
      additional_info: { chat_id: chatId, user: { id: anna.id, name: 'Anna', username: null } },
    });
    // Signals to every local socket go out in one turn: by now the others would have theirs.
    assert.equal(typingFrames(annaFlow).length, 0, 'the typist is not told');
    assert.equal(typingFrames(carolFlow).length, 0, 'someone outside the chat is not told');
    const [logged] = await server.db.query<{ n: number }>("SELECT count(*)::int AS n FROM user_events WHERE event_type = 'typing'");
    assert.equal(logged?.n, 0, 'typing never enters the event log');
    for (const flow of [annaFlow, borisFlow, carolFlow]) flow.close();
  });

  it('reach every other member of a group', async () => {
    const [anna, boris, carol, dmitri] = await Promise.all([signUp(server), signUp(server), signUp(server), signUp(server)]);
    const created = await request(server, 'POST', '/chat/create', {
      token: anna.token,
      body: { chat_type: 'group', name: 'Typists', participants: [boris.id, carol.id] },
    });
    const chatId = created.body.chat.id as number;
    const flows = await Promise.all([anna, boris, carol, dmitri].map((person) => openFlow(server, person)));

    await sendOnChatSocket(server, carol, { type: 'typing', chat_id: chatId });
    await Promise.all([flows[0]!, flows[1]!].map((flow) => flow.until(() => typingFrames(flow).length === 1)));
    assert.equal(typingFrames(flows[0]!)[0].additional_info.user.id, carol.id);
    assert.equal(typingFrames(flows[2]!).length, 0, 'the typist is not told');
    assert.equal(typingFrames(flows[3]!).length, 0, 'someone outside the group is not told');
    for (const flow of flows) flow.close();
  });

  it('go out at most once in 2 s per person and chat', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const chatId = await privateChat(server, anna, boris);
    const borisFlow = await openFlow(server, boris);
    await sendOnChatSocket(server, anna, ...Array.from({ length: 5 }, () => ({ type: 'typing', chat_id: chatId })));
    await borisFlow.until(() => typingFrames(borisFlow).length >= 1);
    // One more round trip after the first arrived: the other four were handled (and dropped) before the pong.
    await sendOnChatSocket(server, boris, { type: 'ping' });
    assert.equal(typingFrames(borisFlow).length, 1);
    borisFlow.close();
  });

  it('go out at once again after the typist sent a message, and after that message', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const chatId = await privateChat(server, anna, boris);
    const borisFlow = await openFlow(server, boris);
    await sendOnChatSocket(server, anna, { type: 'typing', chat_id: chatId });
    await borisFlow.until(() => typingFrames(borisFlow).length === 1);
    // Typing, the message, typing the next one — within a second, on one socket.
    const answers = await sendOnChatSocket(
      server,
      anna,
      { type: 'typing', chat_id: chatId },
      { type: 'send', client_id: randomUUID(), chat_id: chatId, text: 'first' },
      { type: 'typing', chat_id: chatId },
    );
    assert.equal(answers.filter((answer) => answer.type === 'ack').length, 1);
    await borisFlow.until(() => typingFrames(borisFlow).length === 2);
    const order = borisFlow.frames.filter((frame) => frame.event_type === 'typing' || frame.event_type === 'text').map((frame) => frame.event_type);
    assert.deepEqual(order, ['typing', 'text', 'typing'], 'the signal held back within 2 s is dropped; the one after the message goes, after it');
    borisFlow.close();
  });

  it('are refused for a chat the person is not in, as a send would be, and for a malformed frame', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const mallory = await signUp(server);
    const chatId = await privateChat(server, anna, boris);
    const borisFlow = await openFlow(server, boris);

    const [refusal] = await sendOnChatSocket(server, mallory, { type: 'typing', chat_id: chatId });
    assert.equal(refusal.type, 'error');
    assert.equal(refusal.error, 'chat_not_found');
    assert.equal(refusal.status, 404);
    const [malformed] = await sendOnChatSocket(server, anna, { type: 'typing', chat_id: 'everywhere' });
    assert.equal(malformed.error, 'bad_frame');
    // Boris hears of neither; a real signal afterwards is the first he gets.
    await sendOnChatSocket(server, anna, { type: 'typing', chat_id: chatId });
    await borisFlow.until(() => typingFrames(borisFlow).length === 1);
    assert.equal(typingFrames(borisFlow)[0].additional_info.user.id, anna.id);
    borisFlow.close();
  });
});
