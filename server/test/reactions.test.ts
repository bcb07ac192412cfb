import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from './helpers/server.js';
import { openFlow, request, sendText, signUp, type Person, type SocketProbe } from './helpers/client.js';

const reactionEvents = (flow: SocketProbe) => flow.frames.filter((frame) => frame.event_type === 'message-reactions');

describe('reactions', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  const react = (person: Person | null, messageId: number, emoji?: unknown) =>
    request(server, emoji === undefined ? 'DELETE' : 'PUT', `/chat/message/${messageId}/reaction`, {
      ...(person ? { token: person.token } : {}),
      ...(emoji === undefined ? {} : { body: { emoji } }),
    });

  async function group(owner: Person, members: Person[]): Promise<number> {
    const created = await request(server, 'POST', '/chat/create', {
      token: owner.token,
      body: { chat_type: 'group', name: 'Reactors', participants: members.map((member) => member.id) },
    });
    return created.body.chat.id as number;
  }

  it('one per person per message: given, replaced, taken back — live for every member, in the history for later', async () => {
    const [anna, boris, carol, dmitri] = await Promise.all([signUp(server), signUp(server), signUp(server), signUp(server)]);
    const chatId = await group(anna, [boris, carol]);
    const message = (await sendText(server, anna, chatId, 'pizza tonight?')).message;
    assert.deepEqual(message.reactions, []);
    const flows = await Promise.all([anna, boris, carol, dmitri].map((person) => openFlow(server, person)));
    try {
      const given = await react(boris, message.id, '👍');
      assert.equal(given.status, 200);
      assert.deepEqual(given.body, { chat_id: chatId, message_id: message.id, reactions: [{ emoji: '👍', user_ids: [boris.id] }] });
      await react(carol, message.id, '👍');
      await react(anna, message.id, '❤️');
      const replaced = await react(boris, message.id, '❤️');
      assert.deepEqual(replaced.body.reactions, [
        { emoji: '👍', user_ids: [carol.id] },
        { emoji: '❤️', user_ids: [anna.id, boris.id] },
      ]);
      // The same again changes nothing and tells nobody; taking back one's reaction removes it.
      await react(boris, message.id, '❤️');
      const taken = await react(carol, message.id);
      assert.deepEqual(taken.body.reactions, [{ emoji: '❤️', user_ids: [anna.id, boris.id] }]);

      for (const flow of flows.slice(0, 3)) await flow.until(() => reactionEvents(flow).length === 5);
      const last = reactionEvents(flows[0]!).at(-1);
      assert.equal(typeof last.seq, 'number', 'a reaction is a logged event');
      assert.deepEqual(last.additional_info, taken.body);
      assert.equal(reactionEvents(flows[3]!).length, 0, 'someone outside the chat is not told');

      const history = await request(server, 'GET', `/chat/history?chat_id=${chatId}`, { token: carol.token });
      assert.deepEqual(history.body.messages[0].reactions, [{ emoji: '❤️', user_ids: [anna.id, boris.id] }]);
    } finally {
      for (const flow of flows) flow.close();
    }
  });

  it('is refused outside the chat, for emoji outside the set, and for deleted messages; nothing is stored', async () => {
    const [anna, boris, carol] = await Promise.all([signUp(server), signUp(server), signUp(server)]);
    const chatId = await group(anna, [boris]);
    const message = (await sendText(server, anna, chatId, 'hello')).message;
    assert.equal((await react(carol, message.id, '👍')).status, 404, 'an outsider cannot tell the message exists');
    assert.equal((await react(null, message.id, '👍')).status, 401);
    const odd = await react(boris, message.id, '🦄');
    assert.equal(odd.status, 400);
    assert.equal(typeof odd.body.message, 'string');
    assert.equal((await react(boris, message.id, '')).status, 400);
    assert.equal((await react(boris, message.id + 100_000, '👍')).status, 404);
    assert.equal((await request(server, 'DELETE', `/chat/message/${message.id}`, { token: anna.token })).status, 200);
    assert.equal((await react(boris, message.id, '👍')).status, 404);
    const [stored] = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM message_reactions WHERE message_id = $1', [message.id]);
    assert.equal(stored?.n, 0);
  });
});
