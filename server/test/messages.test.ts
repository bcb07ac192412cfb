import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from './helpers/server.js';
import {
  type Person,
  mediaTokens,
  nextEvent,
  openFlow,
  pngBytes,
  privateChat,
  request,
  sendFrame,
  sendText,
  signUp,
  upload,
} from './helpers/client.js';
import { makeStaff } from './helpers/staff.js';

async function uploaded(server: TestServer, person: Person, file: { name?: string; type?: string; data?: Buffer | string } = {}): Promise<any> {
  const response = await upload(server, person, file);
  assert.equal(response.status, 201, JSON.stringify(response.body));
  return response.body.file;
}

async function group(server: TestServer, owner: Person, members: Person[]): Promise<number> {
  const created = await request(server, 'POST', '/chat/create', {
    token: owner.token,
    body: { chat_type: 'group', name: 'G', participants: members.map((member) => member.id) },
  });
  assert.equal(created.status, 201);
  return created.body.chat.id;
}

const unread = async (server: TestServer, person: Person, chatId: number) =>
  (await request(server, 'GET', `/chat/unread-count/${chatId}`, { token: person.token })).body.unread_messages;

describe('messages of every type', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  it('sends image, audio, video and document messages with their file and meta, live and in history', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const chatId = await privateChat(server, anna, boris);
    const borisFlow = await openFlow(server, boris);
    const image = await uploaded(server, anna, { name: 'cat.png', type: 'image/png', data: pngBytes(100) });
    const audio = await uploaded(server, anna, { name: 'voice.webm', type: 'audio/webm;codecs=opus', data: 'OggS fake audio' });
    const video = await uploaded(server, anna, { name: 'clip.mp4', type: 'video/mp4', data: 'fake video' });
    const doc = await uploaded(server, anna, { name: 'report.pdf', type: 'application/pdf', data: '%PDF-1.4' });
    assert.equal(audio.mime, 'audio/webm', 'parameters dropped');

    const cases = [
      { message_type: 'image', file: image, meta: { width: 640, height: 480 }, text: '  a cat  ' },
      { message_type: 'audio', file: audio, meta: { duration_ms: 5300 } },
      { message_type: 'video', file: video, meta: { duration_ms: 1000, width: 1280, height: 720 } },
      { message_type: 'document', file: doc },
    ];
    for (const item of cases) {
      const ack = await sendFrame(server, anna, {
        chat_id: chatId,
        message_type: item.message_type,
        file_path: item.file.path,
        ...(item.meta ? { meta: item.meta } : {}),
        ...(item.text ? { text: item.text } : {}),
      });
      assert.equal(ack.type, 'ack', JSON.stringify(ack));
      assert.equal(ack.message.type, item.message_type);
      assert.equal(ack.message.file_path, item.file.path);
      assert.deepEqual(ack.message.file, item.file);
      assert.deepEqual(ack.message.meta, item.meta ?? {});
      assert.equal(ack.message.text, item.text ? 'a cat' : '');
      assert.equal(ack.message.reply_to, null);
      assert.equal(ack.message.forwarded_from, null);
      const live = await nextEvent(borisFlow, (event) => event.event_type === item.message_type);
      assert.deepEqual(live.additional_info.message, ack.message);
    }
    const history = await request(server, 'GET', `/chat/history?chat_id=${chatId}`, { token: boris.token });
    assert.deepEqual(history.body.messages.map((message: any) => [message.type, message.file.name, message.meta]), [
      ['image', 'cat.png', { width: 640, height: 480 }],
      ['audio', 'voice.webm', { duration_ms: 5300 }],
      ['video', 'clip.mp4', { duration_ms: 1000, width: 1280, height: 720 }],
      ['document', 'report.pdf', {}],
    ]);
    const list = await request(server, 'GET', '/chat/list', { token: boris.token });
    assert.deepEqual(list.body.chats[0].last_message.file, doc);
    // Boris may now see the files of the chat.
    assert.deepEqual(Object.keys(await mediaTokens(server, boris, [image.path, doc.path])).sort(), [image.path, doc.path].sort());
    borisFlow.close();
  });

  it('refuses a file that is not the sender’s, a type that does not fit, and malformed content', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const chatId = await privateChat(server, anna, boris);
    const borisImage = await uploaded(server, boris);
    const annaAudio = await uploaded(server, anna, { name: 'a.ogg', type: 'audio/ogg', data: 'audio' });
    const annaText = await uploaded(server, anna, { name: 'notes.txt', type: 'text/plain', data: 'hello' });
    const fakePng = await uploaded(server, anna, { name: 'fake.png', type: 'image/png', data: '<script>alert(1)</script>' });
    assert.equal(fakePng.mime, 'application/octet-stream', 'a png that does not start like one is not an image');

    const send = (frame: Record<string, unknown>) => sendFrame(server, anna, { chat_id: chatId, ...frame });
    const expectError = async (frame: Record<string, unknown>, error: string, status = 400) => {
      const reply = await send(frame);
      assert.deepEqual([reply.type, reply.error, reply.status], ['error', error, status], JSON.stringify(frame));
    };
    await expectError({ message_type: 'image', file_path: borisImage.path }, 'file_not_yours');
    await expectError({ message_type: 'image', file_path: '../../etc/passwd' }, 'file_not_yours');
    await expectError({ message_type: 'document', file_path: '2024/01/0123456789abcdef0123456789abcdef.png' }, 'file_not_yours');
    await expectError({ message_type: 'image', file_path: annaAudio.path }, 'file_type_mismatch');
    await expectError({ message_type: 'video', file_path: annaAudio.path }, 'file_type_mismatch');
    await expectError({ message_type: 'image', file_path: annaText.path }, 'file_type_mismatch');
    await expectError({ message_type: 'image', file_path: fakePng.path }, 'file_type_mismatch');
    await expectError({ message_type: 'image' }, 'file_required');
    await expectError({ message_type: 'text', text: 'hi', file_path: annaText.path }, 'unexpected_file');
    await expectError({ message_type: 'text' }, 'empty_message');
    for (const meta of [{ duration_ms: -1 }, { duration_ms: 1.5 }, { colour: 3 }, { width: '10' }]) {
      const reply = await send({ message_type: 'audio', file_path: annaAudio.path, meta });
      assert.equal(reply.type, 'error');
      assert.match(reply.message, /^cannot parse message/);
    }
    assert.equal((await send({ message_type: 'document', file_path: annaText.path })).type, 'ack', 'a document takes any type');
    assert.equal((await send({ message_type: 'audio', file_path: annaAudio.path, meta: { duration_ms: 0 } })).type, 'ack');
    const stored = await server.db.query('SELECT id FROM messages WHERE chat_id = $1', [chatId]);
    assert.equal(stored.length, 2, 'nothing refused was stored');
  });

  it('replies with a snapshot of the quoted message, only within the chat', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const chatId = await privateChat(server, anna, boris);
    const other = await privateChat(server, anna, await signUp(server));
    const image = await uploaded(server, boris);
    const quoted = (await sendFrame(server, boris, { chat_id: chatId, message_type: 'image', file_path: image.path, text: 'look' })).message;
    const elsewhere = (await sendText(server, anna, other, 'elsewhere')).message;

    const reply = await sendFrame(server, anna, { chat_id: chatId, text: 'nice', reply_to_id: quoted.id });
    assert.equal(reply.type, 'ack');
    assert.deepEqual(reply.message.reply_to, { id: quoted.id, sender_id: boris.id, type: 'image', text: 'look', file: image });
    const wrong = await sendFrame(server, anna, { chat_id: chatId, text: 'x', reply_to_id: elsewhere.id });
    assert.deepEqual([wrong.error, wrong.status], ['reply_not_found', 400]);
    assert.equal((await sendFrame(server, anna, { chat_id: chatId, text: 'x', reply_to_id: 9_999_999 })).error, 'reply_not_found');

    // Once the quoted message is deleted, the reply shows it blank.
    assert.equal((await request(server, 'DELETE', `/chat/message/${quoted.id}`, { token: boris.token })).status, 200);
    const history = await request(server, 'GET', `/chat/history?chat_id=${chatId}`, { token: anna.token });
    const shown = history.body.messages.find((message: any) => message.id === reply.message.id);
    assert.deepEqual(shown.reply_to, { id: quoted.id, sender_id: boris.id, type: 'image', text: '', file: null });
    // A reply begun before the deletion still goes, quoting it blank: it is not refused for good (every retry).
    const late = await sendFrame(server, anna, { chat_id: chatId, text: 'x', reply_to_id: quoted.id });
    assert.equal(late.type, 'ack', JSON.stringify(late));
    assert.deepEqual(late.message.reply_to, { id: quoted.id, sender_id: boris.id, type: 'image', text: '', file: null });
  });

  it('forwards a copy naming the original author, only from chats the sender is in', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server, { name: 'Boris' });
    const carl = await signUp(server);
    const withBoris = await privateChat(server, anna, boris);
    const withCarl = await privateChat(server, anna, carl);
    const borisCarl = await privateChat(server, boris, carl);
    const audio = await uploaded(server, boris, { name: 'v.webm', type: 'audio/webm', data: 'voice' });
    const original = (await sendFrame(server, boris, { chat_id: withBoris, message_type: 'audio', file_path: audio.path, text: 'listen', meta: { duration_ms: 4200 } }))
      .message;
    const carlFlow = await openFlow(server, carl);
    const forward = await sendFrame(server, anna, { chat_id: withCarl, forward_message_id: original.id });
    assert.equal(forward.type, 'ack', JSON.stringify(forward));
    assert.equal(forward.message.chat_id, withCarl);
    assert.equal(forward.message.sender_id, anna.id);
    assert.deepEqual(
      [forward.message.type, forward.message.text, forward.message.file, forward.message.meta],
      ['audio', 'listen', audio, { duration_ms: 4200 }],
    );
    assert.deepEqual(forward.message.forwarded_from, { user_id: boris.id, name: 'Boris' });
    const live = await nextEvent(carlFlow, (event) => event.event_type === 'audio');
    assert.deepEqual(live.additional_info.message.forwarded_from, { user_id: boris.id, name: 'Boris' });
    // The forwarded file is now visible to Carl through the message.
    assert.deepEqual(Object.keys(await mediaTokens(server, carl, [audio.path])), [audio.path]);
    // A forward of the forward still names Boris.
    const again = await sendFrame(server, carl, { chat_id: borisCarl, forward_message_id: forward.message.id });
    assert.deepEqual(again.message.forwarded_from, { user_id: boris.id, name: 'Boris' });

    // Anna is not in Boris and Carl's chat: she cannot forward from it.
    const secretOfTheirs = (await sendText(server, boris, borisCarl, 'between us')).message;
    const refused = await sendFrame(server, anna, { chat_id: withCarl, forward_message_id: secretOfTheirs.id });
    assert.deepEqual([refused.type, refused.status, refused.error], ['error', 404, 'message_not_found']);
    const mixed = await sendFrame(server, anna, { chat_id: withCarl, forward_message_id: original.id, text: 'extra' });
    assert.match(mixed.message, /^cannot parse message/, 'a forward carries nothing of its own');
    const texts = (await request(server, 'GET', `/chat/history?chat_id=${withCarl}`, { token: carl.token })).body.messages.map((m: any) => m.text);
    assert.deepEqual(texts, ['listen'], 'nothing else was stored');
    carlFlow.close();
  });

  it('deletes a message: unread lowered exactly for those who had not read it, last message updated, everyone told', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const carl = await signUp(server);
    const eve = await signUp(server);
    const chatId = await group(server, anna, [boris, carl]);
    const m1 = (await sendText(server, anna, chatId, 'one')).message;
    await request(server, 'PUT', `/chat/read?chat_id=${chatId}`, { token: boris.token });
    const m2 = (await sendText(server, anna, chatId, 'two')).message;
    const m3 = (await sendText(server, anna, chatId, 'three')).message;
    assert.deepEqual([await unread(server, boris, chatId), await unread(server, carl, chatId)], [2, 3]);
    const flows = await Promise.all([anna, boris, carl].map((person) => openFlow(server, person)));

    // Boris had read "one", Carl had not.
    assert.deepEqual((await request(server, 'DELETE', `/chat/message/${m1.id}?is_last_message=false`, { token: anna.token })).body, {
      deleted: true,
    });
    assert.deepEqual([await unread(server, boris, chatId), await unread(server, carl, chatId)], [2, 2]);
    for (const flow of flows) {
      const event = await nextEvent(flow, (e) => e.event_type === 'message-deleted' && e.additional_info.message_id === m1.id);
      assert.equal(event.additional_info.chat_id, chatId);
      assert.equal(event.additional_info.last_message.id, m3.id, 'the last message did not change');
    }

    // The last message goes: the chat's last message becomes "two" (`is_last_message` is not trusted).
    assert.equal((await request(server, 'DELETE', `/chat/message/${m3.id}?is_last_message=false`, { token: anna.token })).status, 200);
    assert.deepEqual([await unread(server, boris, chatId), await unread(server, carl, chatId)], [1, 1]);
    const event = await nextEvent(flows[2]!, (e) => e.event_type === 'message-deleted' && e.additional_info.message_id === m3.id);
    assert.equal(event.additional_info.last_message.id, m2.id);
    assert.equal(event.additional_info.last_message.text, 'two');
    const chat = (await request(server, 'GET', `/chat/${chatId}`, { token: carl.token })).body.chat;
    assert.equal(chat.last_message.id, m2.id);
    assert.equal(chat.last_message_at, m2.created_at);

    // Who may delete: not another member, not an outsider; the owner may delete anyone's.
    const borisMessage = (await sendText(server, boris, chatId, 'from boris')).message;
    assert.equal(await unread(server, anna, chatId), 1);
    const notHis = await request(server, 'DELETE', `/chat/message/${m2.id}`, { token: carl.token });
    assert.deepEqual([notHis.status, notHis.body.error], [403, 'not_allowed']);
    assert.equal((await request(server, 'DELETE', `/chat/message/${m2.id}`, { token: eve.token })).status, 404);
    assert.equal((await request(server, 'DELETE', `/chat/message/${borisMessage.id}`, { token: anna.token })).status, 200);
    assert.equal(await unread(server, anna, chatId), 0, 'the owner had not read it');
    assert.equal((await request(server, 'DELETE', `/chat/message/${borisMessage.id}`, { token: boris.token })).status, 404, 'already gone');
    assert.equal((await request(server, 'DELETE', `/chat/message/${m2.id}`, { token: anna.token })).status, 200);
    const emptied = (await request(server, 'GET', `/chat/${chatId}`, { token: anna.token })).body.chat;
    // Nothing left: the preview says "Message deleted" (spec §4), and the chat keeps its place in the list.
    assert.deepEqual([emptied.last_message, emptied.last_message_deleted, emptied.last_message_at], [null, true, m2.created_at]);
    assert.deepEqual([await unread(server, boris, chatId), await unread(server, carl, chatId)], [0, 0]);
    // Eve, not a member, was told nothing of any of it: her event log is empty.
    assert.deepEqual(await server.db.query('SELECT event_type FROM user_events WHERE user_id = $1', [eve.id]), []);
    for (const flow of flows) flow.close();
  });

  it('lets an admin delete messages in a secret group', async () => {
    const manager = await signUp(server);
    const admin = await signUp(server);
    const boris = await signUp(server);
    await server.db.query('UPDATE users SET role = 1 WHERE id = $1', [manager.id]);
    await makeStaff(server, admin, 2);
    const created = await request(server, 'POST', '/chat/create', {
      token: manager.token,
      body: { chat_type: 'group', name: 'S', participants: [boris.id], is_secret: true },
    });
    const message = (await sendText(server, boris, created.body.chat.id, 'hush')).message;
    assert.equal((await request(server, 'DELETE', `/chat/message/${message.id}`, { token: admin.token })).status, 200);
    const plain = await group(server, manager, [boris]);
    const other = (await sendText(server, boris, plain, 'plain')).message;
    assert.equal((await request(server, 'DELETE', `/chat/message/${other.id}`, { token: admin.token })).status, 404, 'not a secret group');
  });
});
