import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startServer, type TestServer } from './helpers/server.js';
import { type Person, SocketProbe, chatSocketUrl, events, flowUrl, openFlow, privateChat, request, signUp, waitFor } from './helpers/client.js';
import { serverProcess } from './helpers/process.js';

/** Sends every frame at once on one socket (no waiting between them) and returns the answers by client id. */
async function pipeline(server: TestServer, person: Person, frames: Array<Record<string, unknown>>): Promise<Map<string, any>> {
  const socket = await SocketProbe.open(chatSocketUrl(server, person.token));
  try {
    for (const frame of frames) socket.send({ type: 'send', ...frame });
    const ids = new Set(frames.map((frame) => frame.client_id));
    const all = await socket.until((got) => got.filter((frame) => ids.has(frame.client_id)).length >= frames.length);
    return new Map(all.filter((frame) => ids.has(frame.client_id)).map((frame) => [frame.client_id, frame]));
  } finally {
    socket.close();
  }
}

async function group(server: TestServer, owner: Person, members: Person[]): Promise<number> {
  const created = await request(server, 'POST', '/chat/create', {
    token: owner.token,
    body: { chat_type: 'group', name: 'Batch', participants: members.map((member) => member.id) },
  });
  assert.equal(created.status, 201);
  return created.body.chat.id;
}

const gapless = (seqs: number[]) => seqs.every((seq, index) => index === 0 || seq === seqs[index - 1]! + 1);

describe('the batched message writer (group commit)', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ RATE_MESSAGES_PER_10S: '100000' });
  });
  after(() => server.close());

  it('writes many senders in one chat and across chats in few transactions; every seq gapless, every sender in order', async () => {
    const people = await Promise.all(Array.from({ length: 8 }, () => signUp(server)));
    const hub = await signUp(server);
    const groupId = await group(server, people[0]!, [...people.slice(1), hub]);
    const privates = await Promise.all(people.map((person) => privateChat(server, person, hub)));
    const hubFlow = await openFlow(server, hub);
    const flows = await Promise.all(people.map((person) => openFlow(server, person)));
    const before = { ...server.app.services.messageWriter.stats };
    const perSender = 12;
    const sent = new Map<number, string[]>(); // sender → client ids in the order sent
    await Promise.all(
      people.map(async (person, index) => {
        const frames = Array.from({ length: perSender }, (_, n) => ({
          client_id: randomUUID(),
          chat_id: n % 2 === 0 ? groupId : privates[index]!,
          text: `${index}/${n}`,
        }));
        sent.set(person.id, frames.map((frame) => frame.client_id));
        const answers = await pipeline(server, person, frames);
        for (const frame of frames) assert.equal(answers.get(frame.client_id)?.type, 'ack', JSON.stringify(answers.get(frame.client_id)));
      }),
    );
    const total = people.length * perSender;
    const stats = server.app.services.messageWriter.stats;
    assert.equal(stats.messages - before.messages, total);
    assert.ok(stats.batches - before.batches < total, `${stats.batches - before.batches} transactions for ${total} messages`);

    // The hub is in every chat: it gets every message, in a gapless sequence.
    await hubFlow.until((frames) => events(frames).filter((event) => event.event_type === 'text').length === total);
    assert.ok(gapless(events(hubFlow.frames).map((event) => event.seq)));
    // Each sender's messages reach the hub in the order they were sent, and are stored in that order.
    for (const [senderId, clientIds] of sent) {
      const seen = events(hubFlow.frames)
        .filter((event) => event.additional_info.message.sender_id === senderId)
        .map((event) => event.additional_info.message.client_id);
      assert.deepEqual(seen, clientIds);
      const stored = await server.db.query<{ client_id: string }>('SELECT client_id FROM messages WHERE sender_id = $1 ORDER BY id', [senderId]);
      assert.deepEqual(stored.map((row) => row.client_id), clientIds);
    }
    // Every member's log is gapless too, and unread counts match what each was sent by others.
    for (const [index, flow] of flows.entries()) {
      await flow.until((frames) => events(frames).filter((event) => event.event_type === 'text').length === (people.length * perSender) / 2 + perSender / 2);
      assert.ok(gapless(events(flow.frames).map((event) => event.seq)), `member ${index}`);
    }
    const unread = await request(server, 'GET', `/chat/unread-count/${groupId}`, { token: hub.token });
    assert.equal(unread.body.unread_messages, total / 2);
    hubFlow.close();
    for (const flow of flows) flow.close();
  });

  it('stores a retried client id once, within one batch and across batches, and tells nobody twice', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const chatId = await privateChat(server, anna, boris);
    const flow = await openFlow(server, boris);
    const clientId = randomUUID();
    const frame = { client_id: clientId, chat_id: chatId, text: 'once' };
    const socket = await SocketProbe.open(chatSocketUrl(server, anna.token));
    socket.send({ type: 'send', ...frame });
    socket.send({ type: 'send', ...frame }); // the same batch
    await socket.until((frames) => frames.filter((got) => got.client_id === clientId).length === 2);
    socket.send({ type: 'send', ...frame }); // a later batch
    const answers = await socket.until((frames) => frames.filter((got) => got.client_id === clientId).length === 3);
    socket.close();
    const acks = answers.filter((got) => got.client_id === clientId);
    assert.ok(acks.every((ack) => ack.type === 'ack' && ack.message.id === acks[0].message.id));
    const rows = await server.db.query('SELECT id FROM messages WHERE sender_id = $1 AND client_id = $2', [anna.id, clientId]);
    assert.equal(rows.length, 1);
    await waitFor(() => events(flow.frames).some((event) => event.additional_info.message?.client_id === clientId), 'the event');
    assert.equal(events(flow.frames).filter((event) => event.additional_info.message?.client_id === clientId).length, 1);
    flow.close();
  });

  it('refuses a bad send inside a batch alone: the others are committed and acknowledged', async () => {
    const anna = await signUp(server);
    const boris = await signUp(server);
    const stranger = await signUp(server);
    const chatId = await privateChat(server, anna, boris);
    const foreignChat = await privateChat(server, boris, stranger);
    const frames = [
      { client_id: randomUUID(), chat_id: chatId, text: 'first' },
      { client_id: randomUUID(), chat_id: foreignChat, text: 'not my chat' },
      { client_id: randomUUID(), chat_id: chatId, text: '   ' },
      { client_id: randomUUID(), chat_id: chatId, message_type: 'image', file_path: '2020/01/nope.png' },
      { client_id: randomUUID(), chat_id: chatId, text: 'reply', reply_to_id: 999_999_999 },
      { client_id: randomUUID(), chat_id: chatId, forward_message_id: 999_999_999 },
      { client_id: randomUUID(), chat_id: chatId, text: 'last' },
    ];
    const answers = await pipeline(server, anna, frames);
    const kinds = frames.map((frame) => answers.get(frame.client_id)).map((answer) => (answer.type === 'ack' ? 'ack' : answer.error));
    assert.deepEqual(kinds, ['ack', 'chat_not_found', 'empty_message', 'file_not_yours', 'reply_not_found', 'message_not_found', 'ack']);
    const stored = await server.db.query<{ text: string }>('SELECT text FROM messages WHERE sender_id = $1 ORDER BY id', [anna.id]);
    assert.deepEqual(stored.map((row) => row.text), ['first', 'last']);
  });
});

describe('a crash in the middle of writing', () => {
  it('loses nothing that was acknowledged and acknowledges nothing that was not stored (kill -9 of the server process)', async () => {
    const proc = await serverProcess({ RATE_MESSAGES_PER_10S: '100000' });
    const server = proc as unknown as TestServer; // the HTTP and socket helpers need only its URLs
    try {
      const senders = await Promise.all(Array.from({ length: 4 }, () => signUp(server)));
      const boris = await signUp(server);
      const chats = await Promise.all(senders.map((sender) => privateChat(server, sender, boris)));
      const acked = new Set<string>();
      const sent = new Set<string>();
      let killed = false;
      // Each sender keeps a window of 16 sends in flight, as the client does, until the server dies.
      const sending = senders.map(async (sender, index) => {
        const socket = await SocketProbe.open(chatSocketUrl(server, sender.token));
        let inFlight = 0;
        socket.socket.on('message', (data) => {
          const frame = JSON.parse(String(data));
          if (frame.type === 'ack') acked.add(frame.client_id);
          inFlight -= 1;
        });
        while (!killed && socket.closeCode === undefined) {
          while (inFlight < 16) {
            const clientId = randomUUID();
            sent.add(clientId);
            socket.send({ type: 'send', client_id: clientId, chat_id: chats[index], text: `crash test ${sent.size}` });
            inFlight += 1;
          }
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
        socket.close();
      });
      await waitFor(() => acked.size >= 300, 'some messages acknowledged before the crash');
      await proc.kill();
      killed = true;
      await Promise.all(sending);
      const ackedAtCrash = new Set(acked);
      assert.ok(sent.size > ackedAtCrash.size, 'the crash came while sends were in flight');

      await proc.start();
      // What Boris's log holds after the restart, replayed from the beginning.
      const flow = await SocketProbe.open(flowUrl(server, boris.token, 0));
      const frames = await flow.until((all) => all.some((frame) => frame.event_type === 'ready'));
      flow.close();
      const replayed = events(frames).filter((event) => event.event_type === 'text');
      const seqs = events(frames).map((event) => event.seq);
      assert.ok(seqs.every((seq, index) => seq === index + 1), 'the log is gapless from 1');
      const stored = new Set(replayed.map((event) => event.additional_info.message.client_id));
      for (const clientId of ackedAtCrash) assert.ok(stored.has(clientId), `acknowledged ${clientId} was lost`);
      for (const clientId of stored) assert.ok(sent.has(clientId));
      assert.equal(stored.size, replayed.length, 'each message told once');
    } finally {
      await proc.close();
    }
  });
});
