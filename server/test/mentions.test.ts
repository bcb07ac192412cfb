import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startServer, type TestServer } from './helpers/server.js';
import { openFlow, privateChat, request, sendText, signUp, type Person } from './helpers/client.js';

describe('mentions', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  async function withUsername(person: Person, prefix: string): Promise<string> {
    const username = `${prefix}_${randomBytes(4).toString('hex')}`;
    assert.equal((await request(server, 'PUT', '/user/edit', { token: person.token, body: { username } })).status, 200);
    return username;
  }
  const mentionsOf = async (person: Person, chatId: number) =>
    (await request(server, 'GET', '/chat/list', { token: person.token })).body.chats.find((chat: any) => chat.id === chatId).unread_mentions;

  it('in a group, @username names a member: stored on the message, counted unread for them until they read', async () => {
    const [anna, boris, carol, dmitri] = await Promise.all([signUp(server), signUp(server), signUp(server), signUp(server)]);
    const borisName = await withUsername(boris, 'Boris');
    const dmitriName = await withUsername(dmitri, 'dmitri');
    const annaName = await withUsername(anna, 'anna');
    const created = await request(server, 'POST', '/chat/create', {
      token: anna.token,
      body: { chat_type: 'group', name: 'Plans', participants: [boris.id, carol.id] },
    });
    const chatId = created.body.chat.id as number;
    const borisFlow = await openFlow(server, boris);
    try {
      // Case does not matter; an outsider, oneself and an address like a@b.c are no mentions.
      const sent = await sendText(server, anna, chatId, `@${borisName.toUpperCase()} and @${dmitriName}, mail me at x@${borisName}.com — @${annaName}`);
      assert.deepEqual(sent.message.mentions, [boris.id]);
      const event = await borisFlow.until((frames) => frames.some((frame) => frame.additional_info?.message_id === sent.message.id));
      assert.deepEqual(event.find((frame) => frame.additional_info?.message_id === sent.message.id).additional_info.message.mentions, [boris.id]);
      assert.equal(await mentionsOf(boris, chatId), 1);
      assert.equal(await mentionsOf(carol, chatId), 0);
      await sendText(server, carol, chatId, `me too @${borisName}`);
      assert.equal(await mentionsOf(boris, chatId), 2);
      const history = await request(server, 'GET', `/chat/history?chat_id=${chatId}`, { token: carol.token });
      assert.deepEqual(history.body.messages.map((message: any) => message.mentions), [[boris.id], [boris.id]]);

      // A deleted mention is no longer unread; reading the chat clears the rest, and says so to his other tabs.
      const third = await sendText(server, anna, chatId, `@${borisName} again`);
      assert.equal(await mentionsOf(boris, chatId), 3);
      assert.equal((await request(server, 'DELETE', `/chat/message/${third.message.id}`, { token: anna.token })).status, 200);
      assert.equal(await mentionsOf(boris, chatId), 2);
      await request(server, 'PUT', `/chat/read?chat_id=${chatId}&message_id=${sent.message.id}`, { token: boris.token });
      assert.equal(await mentionsOf(boris, chatId), 1, 'the mention after his read mark stays unread');
      await request(server, 'PUT', `/chat/read?chat_id=${chatId}`, { token: boris.token });
      assert.equal(await mentionsOf(boris, chatId), 0);
      const reads = borisFlow.frames.filter((frame) => frame.event_type === 'chat-read').map((frame) => frame.additional_info.unread_mentions);
      assert.deepEqual(reads, [1, 0]);
      // His own reply reads the chat for him: a mention before it is not unread.
      await sendText(server, anna, chatId, `@${borisName}?`);
      await sendText(server, boris, chatId, 'yes');
      assert.equal(await mentionsOf(boris, chatId), 0);
    } finally {
      borisFlow.close();
    }
  });

  it('are for groups only: a private chat stores none', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const borisName = await withUsername(boris, 'bob');
    const chatId = await privateChat(server, anna, boris);
    const sent = await sendText(server, anna, chatId, `hey @${borisName}`);
    assert.deepEqual(sent.message.mentions, []);
    assert.equal(await mentionsOf(boris, chatId), 0);
  });
});
