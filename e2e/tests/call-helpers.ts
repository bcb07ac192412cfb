import { expect as baseExpect, type BrowserContext, type Locator, type Page } from '@playwright/test';

/**
 * How long a call test waits for something that should happen by itself (a window, the other's picture, a
 * reconnect). ICE, DTLS and the first key frame took more than 10 s on a busy 2-core machine (another build beside
 * the run); every wait polls its condition and returns as soon as it holds, so a generous deadline costs nothing.
 */
export const CALL_WAIT_MS = 45_000;
/** A test of calls: long enough for several such waits in a row. */
export const CALL_TEST_TIMEOUT_MS = 6 * CALL_WAIT_MS;

/** `expect` whose waits (toBeVisible, poll…) last up to CALL_WAIT_MS. */
export const expect = baseExpect.configure({ timeout: CALL_WAIT_MS });

/**
 * Test instrumentation, not product code: remembers every RTCPeerConnection a page makes, so a test can read
 * `getStats()` the way the issue asks (decoded video frames, received audio samples).
 */
export async function watchPeerConnections(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const Native = window.RTCPeerConnection;
    const made: RTCPeerConnection[] = [];
    (window as unknown as { __peerConnections: RTCPeerConnection[] }).__peerConnections = made;
    class Watched extends Native {
      constructor(configuration?: RTCConfiguration) {
        super(configuration);
        made.push(this);
      }
    }
    window.RTCPeerConnection = Watched as typeof RTCPeerConnection;
    // The sockets too, so a test can cut the meeting socket as a network drop would.
    const NativeSocket = window.WebSocket;
    const sockets: WebSocket[] = [];
    (window as unknown as { __sockets: WebSocket[] }).__sockets = sockets;
    class WatchedSocket extends NativeSocket {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        sockets.push(this);
      }
    }
    window.WebSocket = WatchedSocket as typeof WebSocket;
  });
}

/** Closes the page's open meeting sockets, like a network drop; returns how many there were. */
export async function dropMeetingSocket(page: Page): Promise<number> {
  return page.evaluate(() => {
    const sockets = (window as unknown as { __sockets: WebSocket[] }).__sockets ?? [];
    const open = sockets.filter((socket) => socket.url.includes('/api/meet/') && socket.readyState === WebSocket.OPEN);
    for (const socket of open) socket.close(4000, 'test: network drop');
    return open.length;
  });
}

export interface MediaFigures {
  /** Decoded video frames, per remote track. */
  framesDecoded: number[];
  /** Received audio samples, per remote track. */
  audioSamples: number[];
  /** Candidate types of the selected pair (local, remote), e.g. ['relay', 'host']. */
  selectedPair: [string, string] | null;
}

/** What the page's open peer connections receive. */
export async function mediaFigures(page: Page): Promise<MediaFigures> {
  return page.evaluate(async () => {
    const pcs = (window as unknown as { __peerConnections: RTCPeerConnection[] }).__peerConnections ?? [];
    const figures: MediaFigures = { framesDecoded: [], audioSamples: [], selectedPair: null };
    for (const pc of pcs) {
      if (pc.connectionState === 'closed') continue;
      const report = await pc.getStats();
      const entries = new Map<string, Record<string, unknown>>();
      report.forEach((entry: Record<string, unknown>) => entries.set(String(entry.id), entry));
      for (const entry of entries.values()) {
        if (entry.type === 'inbound-rtp' && entry.kind === 'video') figures.framesDecoded.push(Number(entry.framesDecoded ?? 0));
        if (entry.type === 'inbound-rtp' && entry.kind === 'audio') figures.audioSamples.push(Number(entry.totalSamplesReceived ?? 0));
        if (entry.type === 'transport' && entry.selectedCandidatePairId) {
          const pair = entries.get(String(entry.selectedCandidatePairId));
          const local = pair && entries.get(String(pair.localCandidateId));
          const remote = pair && entries.get(String(pair.remoteCandidateId));
          if (local && remote) figures.selectedPair = [String(local.candidateType), String(remote.candidateType)];
        }
      }
    }
    return figures;
  });
}

/** Waits until the page decodes video and receives sound from `others` remote people. */
export async function expectReceivingFrom(page: Page, others: number): Promise<MediaFigures> {
  let last: MediaFigures | null = null;
  await expect
    .poll(
      async () => {
        last = await mediaFigures(page);
        return (
          last.framesDecoded.filter((frames) => frames > 0).length >= others && last.audioSamples.filter((samples) => samples > 0).length >= others
        );
      },
      { timeout: CALL_WAIT_MS, message: 'remote video frames and audio samples' },
    )
    .toBe(true);
  return last!;
}

/** The call window: a dialog named after the chat. */
export function callWindow(page: Page, title: string) {
  return page.getByRole('dialog', { name: title });
}

/** Accepts the incoming call; the meeting room opens in a new tab, which is returned. */
export async function acceptIncoming(page: Page): Promise<Page> {
  const incoming = page.getByRole('alertdialog', { name: 'Incoming call' });
  await expect(incoming).toBeVisible();
  const [meeting] = await Promise.all([page.context().waitForEvent('page'), incoming.getByRole('button', { name: 'Accept' }).click()]);
  await expect(incoming).toBeHidden();
  return meeting;
}

/** How many peer connections the page has made so far (a reconnect makes a new one). */
export async function peerConnectionsMade(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __peerConnections: RTCPeerConnection[] }).__peerConnections.length);
}

/** Whether a text shows in full: neither it nor anything inside it is cut off (no ellipsis, no hidden overflow). */
export async function shownInFull(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) =>
    [element, ...Array.from(element.querySelectorAll('*'))].every((node) => node.scrollWidth <= node.clientWidth + 1 && node.scrollHeight <= node.clientHeight + 1),
  );
}

/** Whether two elements' boxes on the screen overlap. */
export async function overlap(a: Locator, b: Locator): Promise<boolean> {
  const [first, second] = await Promise.all([a.boundingBox(), b.boundingBox()]);
  if (!first || !second) return false;
  return first.x < second.x + second.width && second.x < first.x + first.width && first.y < second.y + second.height && second.y < first.y + first.height;
}
