import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Event, type RTCPeerConnection } from 'werift';
import { keepEarlyDtlsPackets } from '../src/media/early-dtls.js';

type State = 'new' | 'connecting' | 'connected' | 'failed' | 'closed';

/**
 * The parts of a werift DTLS transport the keeper uses, behaving as werift does: the state changes to
 * `connecting` and, in the same turn, the DTLS server is created and starts listening on the ICE connection's data.
 */
function fakeTransport() {
  const transport = {
    state: 'new' as State,
    onStateChange: new Event<[State]>(),
    iceTransport: { connection: { onData: new Event<[Buffer]>() } },
  };
  const server: Buffer[] = [];
  return {
    pc: { dtlsTransports: [transport] } as unknown as RTCPeerConnection,
    /** What reaches the DTLS server once it exists. */
    server,
    receive: (packet: Buffer) => transport.iceTransport.connection.onData.execute(packet),
    startDtls() {
      transport.state = 'connecting';
      transport.onStateChange.execute('connecting');
      transport.iceTransport.connection.onData.subscribe((packet) => server.push(packet));
    },
  };
}

const clientHello = Buffer.from([22, 0xfe, 0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x40, 1]);
const stunCheck = Buffer.from([0, 1, 0, 0]);
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('early DTLS packets', () => {
  it('a ClientHello that arrives before the DTLS server exists reaches it when it starts', async () => {
    const dtls = fakeTransport();
    keepEarlyDtlsPackets(dtls.pc);
    dtls.receive(stunCheck); // ICE's own traffic is not DTLS: not kept
    dtls.receive(clientHello);
    dtls.startDtls();
    await settle();
    assert.deepEqual(dtls.server, [clientHello]);
    // Later packets go to the server directly, once.
    const retransmitted = Buffer.from(clientHello);
    dtls.receive(retransmitted);
    await settle();
    assert.deepEqual(dtls.server, [clientHello, retransmitted]);
  });

  it('without the keeper the early ClientHello is lost (what the browser then waited to resend)', async () => {
    const dtls = fakeTransport();
    dtls.receive(clientHello);
    dtls.startDtls();
    await settle();
    assert.deepEqual(dtls.server, []);
  });

  it('a transport is kept once however often it is asked, and one already started is left alone', async () => {
    const dtls = fakeTransport();
    keepEarlyDtlsPackets(dtls.pc);
    keepEarlyDtlsPackets(dtls.pc); // every renegotiation asks again
    dtls.receive(clientHello);
    dtls.startDtls();
    await settle();
    assert.deepEqual(dtls.server, [clientHello]);

    const started = fakeTransport();
    started.startDtls();
    keepEarlyDtlsPackets(started.pc);
    started.receive(clientHello);
    await settle();
    assert.deepEqual(started.server, [clientHello]);
  });
});
