import assert from 'node:assert/strict';
import dgram from 'node:dgram';
import { after, before, describe, it } from 'node:test';
import { Message, classes, methods, parseMessage } from 'werift';
import { ConfigError, loadConfig } from '../src/config.js';
import { publicAddressFrom } from '../src/media/public-address.js';
import { privateChat, request, signUp, waitFor } from './helpers/client.js';
import { MeetClient } from './helpers/meet-client.js';
import { startServer, type TestServer } from './helpers/server.js';

/** The address a NAT in front of this machine would show (TEST-NET-3: nobody's). */
const PUBLIC_ADDRESS = '203.0.113.7';

/**
 * A STUN server on loopback that answers every binding request with PUBLIC_ADDRESS, counting the questions asked:
 * by transaction, since a client sends a request again under the same transaction when its answer is slow (on a
 * busy machine, the answer to the first copy can come after the second was sent).
 */
async function stunServer(): Promise<{ port: number; requests: () => number; close: () => Promise<void> }> {
  const socket = dgram.createSocket('udp4');
  const transactions = new Set<string>();
  socket.on('message', (data, from) => {
    const asked = parseMessage(data);
    if (!asked || asked.messageClass !== classes.REQUEST) return;
    transactions.add(Buffer.from(asked.transactionId).toString('hex'));
    const answer = new Message(methods.BINDING, classes.RESPONSE, asked.transactionId);
    answer.setAttribute('XOR-MAPPED-ADDRESS', [PUBLIC_ADDRESS, from.port]);
    socket.send(answer.bytes, from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { port: socket.address().port, requests: () => transactions.size, close: () => new Promise((resolve) => socket.close(() => resolve())) };
}

describe('the public address behind NAT (MEDIA_STUN_SERVER)', () => {
  let stun: Awaited<ReturnType<typeof stunServer>>;
  before(async () => {
    stun = await stunServer();
  });
  after(async () => {
    await stun.close();
  });

  it('is what the STUN server says; a server that does not answer gives none, in the time allowed', async () => {
    assert.equal(await publicAddressFrom(['127.0.0.1', stun.port]), PUBLIC_ADDRESS);
    const silent = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    try {
      assert.equal(await publicAddressFrom(['127.0.0.1', silent.address().port], 300), null);
    } finally {
      silent.close();
    }
  });

  it('is read from MEDIA_STUN_SERVER as host:port, and anything else is refused at start-up', () => {
    assert.deepEqual(loadConfig({ MEDIA_STUN_SERVER: 'stun.example.com:3478' }).calls.mediaStunServer, ['stun.example.com', 3478]);
    assert.equal(loadConfig({}).calls.mediaStunServer, undefined);
    for (const wrong of ['stun.example.com', 'stun.example.com:0', 'stun.example.com:70000', 'stun:stun.example.com:3478']) {
      assert.throws(() => loadConfig({ MEDIA_STUN_SERVER: wrong }), ConfigError, wrong);
    }
  });

  describe('a server configured with one', () => {
    let server: TestServer;
    before(async () => {
      server = await startServer({ MEDIA_STUN_SERVER: `127.0.0.1:${stun.port}` });
    });
    after(async () => {
      await server.close();
    });

    it('offers its public address to a call, having asked once when the SFU loaded, not on each join', async () => {
      const askedBefore = stun.requests();
      const anna = await signUp(server, { name: 'Anna' });
      const boris = await signUp(server, { name: 'Boris' });
      const chatId = await privateChat(server, anna, boris);
      const started = await request(server, 'POST', '/meet/call', { token: anna.token, body: { chat_id: chatId } });
      assert.equal(started.status, 200, JSON.stringify(started.body));
      const joined: MeetClient[] = [];
      try {
        for (const person of [anna, boris]) {
          const ticket = await request(server, 'GET', `/meet/get-token?chat_id=${chatId}`, { token: person.token });
          const client = await MeetClient.join(server, chatId, ticket.body.token);
          joined.push(client);
          await waitFor(
            () => client.frames('candidate').some((candidate) => String(candidate.candidate).includes(` ${PUBLIC_ADDRESS} `)),
            'a candidate with the public address',
          );
        }
        assert.equal(stun.requests() - askedBefore, 1, 'asked once');
      } finally {
        for (const client of joined) await client.close();
      }
    });
  });
});
