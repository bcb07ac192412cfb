import type { RTCDtlsTransport, RTCPeerConnection } from 'werift';

/** More than a handshake's first flight (a ClientHello, resent a few times) is not worth keeping. */
const MAX_EARLY_PACKETS = 16;

/** DTLS records begin with a content type in 20–63 (RFC 7983), which tells them from STUN and SRTP on one port. */
function isDtlsRecord(packet: Buffer): boolean {
  return packet.length > 0 && packet[0]! >= 20 && packet[0]! <= 63;
}

const kept = new WeakSet<RTCDtlsTransport>();

/**
 * Keeps the DTLS handshake packets that reach a peer connection before its DTLS transport starts, and hands them to
 * it when it does.
 *
 * The browser (the DTLS client: it answers our `actpass` with `active`) sends its ClientHello the moment its side of
 * ICE is connected. werift creates its DTLS server only once *its* side is, a check round later, and whatever came
 * before is lost, so the handshake waited for Chrome's retransmission (50 ms, then 100, 200…). A probe of the call
 * set-up bench saw ClientHellos arrive 18–110 ms before werift's DTLS started; the stage "ICE connected → DTLS
 * connected" took 110 ms at p50 and 350 ms at p90.
 */
export function keepEarlyDtlsPackets(pc: RTCPeerConnection): void {
  for (const transport of pc.dtlsTransports) {
    if (kept.has(transport) || transport.state !== 'new') continue;
    kept.add(transport);
    const connection = transport.iceTransport.connection;
    const early: Buffer[] = [];
    const listening = connection.onData.subscribe((packet: Buffer) => {
      if (transport.state === 'new' && isDtlsRecord(packet) && early.length < MAX_EARLY_PACKETS) early.push(packet);
    });
    const watching = transport.onStateChange.subscribe((state) => {
      if (state === 'new') return;
      listening.unSubscribe();
      watching.unSubscribe();
      if (state !== 'connecting' || early.length === 0) return;
      // The state changes just before werift constructs its DTLS server (in the same turn): hand the packets over
      // right after, through the connection's own data event, where that server listens.
      const packets = early.splice(0);
      queueMicrotask(() => {
        for (const packet of packets) connection.onData.execute(packet);
      });
    });
  }
}
