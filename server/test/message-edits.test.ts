import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from './helpers/server.js';
import { openFlow, privateChat, request, sendFrame, sendText, signUp, type Person, type SocketProbe } from './helpers/client.js';

const edits = (flow: SocketProbe) => flow.frames.filter((frame) => frame.event_type === 'message-edited');

describe('editing a message', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  const edit = (person: Person | null, messageId: number, body: unknown) =>
    request(server, 'PUT', `/chat/message/${messageId}`, { ...(person ? { token: person.token } : {}), body });

  it('changes the text for every member live, through their logs, marked edited; search and history follow', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const carol = await signUp(server);
    const chatId = await privateChat(server, anna, boris);
    const sent = (await sendText(server, anna, chatId, 'see you at seven')).message;
    assert.equal(sent.edited_at, null);
    const [annaFlow, borisFlow, carolFlow] = await Promise.all([openFlow(server, anna), openFlow(server, boris), openFlow(server, carol)]);
    try {
      const changed = await edit(anna, sent.id, { text: '  see you at eight ' });
      assert.equal(changed.status, 200);
      assert.equal(changed.body.message.text, 'see you at eight');
      assert.equal(changed.body.message.id, sent.id);
      assert.equal(changed.body.message.client_id, sent.client_id);
      assert.ok(Date.parse(changed.body.message.edited_at) >= Date.parse(sent.created_at));

      await Promise.all([annaFlow, borisFlow].map((flow) => flow.until(() => edits(flow).length === 1)));
      const [event] = edits(borisFlow);
      assert.equal(typeof event.seq, 'number', 'an edit is a logged event: a reconnecting client catches up');
      assert.deepEqual(event.additional_info, { chat_id: chatId, message_id: sent.id, message: changed.body.message });
      assert.equal(edits(annaFlow).length, 1, "the sender's other tabs hear it too");
      assert.equal(edits(carolFlow).length, 0, 'someone outside the chat is not told');

      const history = await request(server, 'GET', `/chat/history?chat_id=${chatId}`, { token: boris.token });
      assert.deepEqual(
        history.body.messages.map((message: any) => [message.text, message.edited_at !== null]),
        [['see you at eight', true]],
      );
      const found = (query: string) => request(server, 'GET', `/chat/search?chat_id=${chatId}&query=${encodeURIComponent(query)}`, { token: boris.token });
      assert.deepEqual((await found('eight')).body.message_ids, [sent.id]);
      assert.deepEqual((await found('seven')).body.message_ids, []);
      const list = await request(server, 'GET', '/chat/list', { token: boris.token });
      assert.equal(list.body.chats.find((chat: any) => chat.id === chatId).last_message.text, 'see you at eight', 'the chat list preview follows');

      // The same text again changes nothing and tells nobody.
      const same = await edit(anna, sent.id, { text: 'see you at eight' });
      assert.equal(same.status, 200);
      assert.equal(same.body.message.edited_at, changed.body.message.edited_at);
      const marker = await sendText(server, boris, chatId, 'ok');
      await annaFlow.until((frames) => frames.some((frame) => frame.additional_info?.message_id === marker.message.id));
      assert.equal(edits(annaFlow).length, 1);
    } finally {
      for (const flow of [annaFlow, borisFlow, carolFlow]) flow.close();
    }
  });

  it('is refused to anyone but the sender, for other kinds of message, after 48 hours, and for bad text; nothing changes', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const carol = await signUp(server);
    const chatId = await privateChat(server, anna, boris);
    const sent = (await sendText(server, anna, chatId, 'original')).message;
    const stored = async (id = sent.id) => (await server.db.query<{ text: string; edited_at: unknown }>('SELECT text, edited_at FROM messages WHERE id = $1', [id]))[0];

    const byOther = await edit(boris, sent.id, { text: 'hijacked' });
    assert.deepEqual([byOther.status, byOther.body.error, byOther.body.message], [403, 'not_allowed', 'Only its sender can edit a message']);
    assert.equal((await edit(carol, sent.id, { text: 'x' })).status, 404, 'an outsider cannot tell the message exists');
    assert.equal((await edit(null, sent.id, { text: 'x' })).status, 401);
    assert.equal((await edit(anna, sent.id + 100_000, { text: 'x' })).status, 404);

    const blank = await edit(anna, sent.id, { text: '   ' });
    assert.deepEqual([blank.status, blank.body.error], [400, 'empty_message']);
    const long = await edit(anna, sent.id, { text: 'x'.repeat(10_001) });
    assert.deepEqual([long.status, long.body.error], [400, 'message_too_long']);
    assert.equal((await edit(anna, sent.id, {})).status, 400);
    assert.equal((await edit(anna, sent.id, { text: 'x', extra: 1 })).status, 400);
    assert.equal((await edit(anna, sent.id, { text: { a: 1 } })).status, 400);

    const forwarded = await sendFrame(server, boris, { chat_id: chatId, forward_message_id: sent.id });
    const notOwnText = await edit(boris, forwarded.message.id, { text: 'changed' });
    assert.deepEqual([notOwnText.status, notOwnText.body.error], [400, 'cannot_edit']);

    await server.db.query(`UPDATE messages SET created_at = now() - interval '49 hours' WHERE id = $1`, [sent.id]);
    const late = await edit(anna, sent.id, { text: 'too late' });
    assert.deepEqual([late.status, late.body.error], [403, 'edit_window_passed']);
    assert.deepEqual(await stored(), { text: 'original', edited_at: null });

    const gone = (await sendText(server, anna, chatId, 'to be deleted')).message;
    assert.equal((await request(server, 'DELETE', `/chat/message/${gone.id}`, { token: anna.token })).status, 200);
    assert.equal((await edit(anna, gone.id, { text: 'back' })).status, 404);
  });
});
