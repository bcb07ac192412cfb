export interface StatsFigures {
  /** My microphone's loudness, 0–100. */
  localAudioLevel: number;
  /** Per remote person: decoded video frames per second and loudness 0–100. */
  remotes: Map<number, { frameRate: number; audioLevel: number }>;
}

/** framesDecoded seen at the previous poll, per inbound stream, to turn the counter into a rate. */
const previousFrames = new WeakMap<RTCPeerConnection, Map<string, { frames: number; at: number }>>();

/**
 * Reads a peer connection's statistics (polled every second, spec §9): the others' decoded frame rate (a rate
 * of 1 or less shows their avatar) and loudness, and my microphone's level. `owners` maps track ids to people.
 */
export async function pollStats(pc: RTCPeerConnection, owners: Map<string, number>): Promise<StatsFigures> {
  const figures: StatsFigures = { localAudioLevel: 0, remotes: new Map() };
  let report: RTCStatsReport;
  try {
    report = await pc.getStats();
  } catch {
    return figures;
  }
  const previous = previousFrames.get(pc) ?? new Map<string, { frames: number; at: number }>();
  previousFrames.set(pc, previous);
  report.forEach((entry: Record<string, unknown>) => {
    if (entry.type === 'media-source' && entry.kind === 'audio' && typeof entry.audioLevel === 'number') {
      figures.localAudioLevel = Math.round(Math.min(1, entry.audioLevel) * 100);
    }
    if (entry.type !== 'inbound-rtp') return;
    const owner = owners.get(String(entry.trackIdentifier ?? ''));
    if (owner === undefined) return;
    const figure = figures.remotes.get(owner) ?? { frameRate: 0, audioLevel: 0 };
    if (entry.kind === 'video') {
      const frames = Number(entry.framesDecoded ?? 0);
      const at = Number(entry.timestamp ?? Date.now());
      const before = previous.get(String(entry.id));
      previous.set(String(entry.id), { frames, at });
      if (before && at > before.at) figure.frameRate = ((frames - before.frames) * 1000) / (at - before.at);
      else if (typeof entry.framesPerSecond === 'number') figure.frameRate = entry.framesPerSecond;
    } else if (entry.kind === 'audio' && typeof entry.audioLevel === 'number') {
      figure.audioLevel = Math.round(Math.min(1, entry.audioLevel) * 100);
    }
    figures.remotes.set(owner, figure);
  });
  return figures;
}
