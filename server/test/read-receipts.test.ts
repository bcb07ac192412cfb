import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from './helpers/server.js';
import { openFlow, privateChat, request, sendText, signUp, type Person, type SocketProbe } from './helpers/client.js';

const readEvents = (flow: SocketProbe) => flow.frames.filter((frame) => frame.event_type === 'messages-read');

async function chatAs(server: TestServer, person: Person, chatId: number): Promise<any> {
  const response = await request(server, 'GET', `/chat/${chatId}`, { token: person.token });
  assert.equal(response.status, 200);
  return response.body.chat;
}

async function group(server: TestServer, owner: Person, members: Person[]): Promise<number> {
  const created = await request(server, 'POST', '/chat/create', {
    token: owner.token,
    body: { chat_type: 'group', name: 'Readers', participants: members.map((member) => member.id) },
  });
  assert.equal(created.status, 201);
  return created.body.chat.id as number;
}

describe('read receipts', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  it('tell the sender of a private chat how far the other person read, through their log; nobody else hears it', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const carol = await signUp(server);
    const chatId = await privateChat(server, anna, boris);
    const first = await sendText(server, anna, chatId, 'one');
    const second = await sendText(server, anna, chatId, 'two');
    assert.equal((await chatAs(server, anna, chatId)).read_by_others_up_to < first.message.id, true, 'nothing read yet');

    const [annaFlow, borisFlow, carolFlow] = await Promise.all([openFlow(server, anna), openFlow(server, boris), openFlow(server, carol)]);
    try {
      await request(server, 'PUT', `/chat/read?chat_id=${chatId}&message_id=${first.message.id}`, { token: boris.token });
      await annaFlow.until(() => readEvents(annaFlow).length === 1);
      const [event] = readEvents(annaFlow);
      assert.equal(typeof event.seq, 'number', 'a receipt is a logged event with its seq');
      assert.deepEqual(event.additional_info, { chat_id: chatId, reader_id: boris.id, up_to: first.message.id });
      assert.equal((await chatAs(server, anna, chatId)).read_by_others_up_to, first.message.id);

      // Reading everything moves it to the newest; a mark that moves nothing tells nobody again.
      await request(server, 'PUT', `/chat/read?chat_id=${chatId}`, { token: boris.token });
      await annaFlow.until(() => readEvents(annaFlow).length === 2);
      assert.equal(readEvents(annaFlow)[1].additional_info.up_to, second.message.id);
      await request(server, 'PUT', `/chat/read?chat_id=${chatId}&message_id=${first.message.id}`, { token: boris.token });
      const marker = await sendText(server, boris, chatId, 'after');
      await annaFlow.until((frames) => frames.some((frame) => frame.additional_info?.message_id === marker.message.id));
      assert.equal(readEvents(annaFlow).length, 2);

      assert.equal(readEvents(borisFlow).length, 0, 'the reader is not told of their own reading');
      assert.equal(readEvents(carolFlow).length, 0, 'someone outside the chat is not told');
      // Boris's reply reads the chat for him: his own mark is at his message, which Anna's list shows.
      assert.equal((await chatAs(server, anna, chatId)).read_by_others_up_to, marker.message.id);
    } finally {
      for (const flow of [annaFlow, borisFlow, carolFlow]) flow.close();
    }
  });

  it('list who read a group message for its sender only, and tell only the senders of what was read', async () => {
    const [anna, boris, carol, dmitri] = await Promise.all([signUp(server, { name: 'Anna' }), signUp(server, { name: 'Boris' }), signUp(server, { name: 'Carol' }), signUp(server)]);
    const chatId = await group(server, anna, [boris, carol]);
    const fromAnna = await sendText(server, anna, chatId, 'hello all');
    const fromCarol = await sendText(server, carol, chatId, 'hi');
    const readers = (person: Person, messageId: number) => request(server, 'GET', `/chat/message/${messageId}/readers`, { token: person.token });

    // Carol's reply read Anna's message for her.
    assert.deepEqual((await readers(anna, fromAnna.message.id)).body.readers.map((user: any) => user.name), ['Carol']);
    const [annaFlow, carolFlow] = await Promise.all([openFlow(server, anna), openFlow(server, carol)]);
    try {
      await request(server, 'PUT', `/chat/read?chat_id=${chatId}`, { token: boris.token });
      await Promise.all([annaFlow, carolFlow].map((flow) => flow.until(() => readEvents(flow).length === 1)));
      assert.deepEqual(readEvents(carolFlow)[0].additional_info, { chat_id: chatId, reader_id: boris.id, up_to: fromCarol.message.id });

      const list = await readers(anna, fromAnna.message.id);
      assert.equal(list.status, 200);
      assert.deepEqual(list.body.readers.map((user: any) => [user.id, user.name]), [[boris.id, 'Boris'], [carol.id, 'Carol']]);
      assert.equal(list.body.readers[0].phone, undefined, 'no phone numbers in the list');
      assert.deepEqual((await readers(carol, fromCarol.message.id)).body.readers.map((user: any) => user.name), ['Boris']);

      const byMember = await readers(boris, fromAnna.message.id);
      assert.equal(byMember.status, 403, 'another member may not see who read Anna’s message');
      assert.equal(byMember.body.message, 'Only its sender can see who read a message');
      assert.equal((await readers(dmitri, fromAnna.message.id)).status, 404, 'an outsider cannot tell the message exists');
      assert.equal((await readers(anna, fromAnna.message.id + 10_000)).status, 404);
      assert.equal((await request(server, 'GET', '/chat/message/abc/readers', { token: anna.token })).status, 400);
      assert.equal((await request(server, 'GET', `/chat/message/${fromAnna.message.id}/readers`)).status, 401);
    } finally {
      annaFlow.close();
      carolFlow.close();
    }
  });

  it('count someone who joins a group as a reader only of what comes after they joined', async () => {
    const [anna, boris, dmitri] = await Promise.all([signUp(server), signUp(server), signUp(server)]);
    const chatId = await group(server, anna, [boris]);
    const before = await sendText(server, anna, chatId, 'before Dmitri');
    const added = await request(server, 'PUT', '/chat/manage-participants', {
      token: anna.token,
      body: { chat_id: chatId, actions: [{ add: true, participants: [dmitri.id] }] },
    });
    assert.equal(added.status, 200);
    assert.equal((await chatAs(server, anna, chatId)).read_by_others_up_to < before.message.id, true, 'joining reads nothing of hers');
    const readers = async (messageId: number) =>
      (await request(server, 'GET', `/chat/message/${messageId}/readers`, { token: anna.token })).body.readers.map((user: any) => user.id);
    await request(server, 'PUT', `/chat/read?chat_id=${chatId}`, { token: dmitri.token });
    assert.deepEqual(await readers(before.message.id), []);
    const after = await sendText(server, anna, chatId, 'after Dmitri');
    await request(server, 'PUT', `/chat/read?chat_id=${chatId}`, { token: dmitri.token });
    assert.deepEqual(await readers(after.message.id), [dmitri.id]);
    assert.equal((await chatAs(server, anna, chatId)).read_by_others_up_to, after.message.id);
  });
});
