import { Message, StunProtocol, classes, methods } from 'werift';

/**
 * The address a STUN server sees this machine's UDP packets come from: its public address behind 1:1 NAT (a
 * cloud machine's). Asked once, when the SFU loads and only where MEDIA_STUN_SERVER says which server to ask —
 * never on a join, where werift would ask Google before every offer (werift-engine.ts). Null when the server does
 * not answer within `timeoutMs` (the SFU then offers the machine's own addresses and MEDIA_HOST_ADDRESSES).
 */
export async function publicAddressFrom(stunServer: [string, number], timeoutMs = 3000): Promise<string | null> {
  const protocol = new StunProtocol();
  await protocol.connectionMade(true);
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('no answer')), timeoutMs);
    });
    const [response] = await Promise.race([protocol.request(new Message(methods.BINDING, classes.REQUEST), stunServer), timedOut]);
    const mapped = response.getAttributeValue('XOR-MAPPED-ADDRESS') as [string, number] | undefined;
    return mapped?.[0] ?? null;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
    // Cancels the request's retransmissions and frees the port.
    await protocol.close().catch(() => undefined);
  }
}
