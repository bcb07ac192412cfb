import { useEffect } from 'react';

/**
 * The two looping call sounds of spec §9, synthesized with the Web Audio API (no file to fetch):
 * - 'outgoing' ("ringing"): the ring-back tone the caller hears until someone answers;
 * - 'incoming' ("call"): the ringtone of an incoming call.
 * One AudioContext is created lazily and kept. Browsers refuse audio before the first interaction with the page;
 * that and any other failure is only logged (spec §8), and the returned stop function still works.
 */
export type RingKind = 'outgoing' | 'incoming';

interface Tone {
  /** Start, seconds from the beginning of the cycle. */
  at: number;
  duration: number;
  /** Played together (a dual tone). */
  frequencies: readonly number[];
}

interface Pattern {
  periodMs: number;
  volume: number;
  tones: readonly Tone[];
}

const trill = (start: number): Tone[] =>
  [0, 1, 2, 3, 4, 5].map((index) => ({ at: start + index * 0.1, duration: 0.09, frequencies: [index % 2 === 0 ? 784 : 988] }));

const PATTERNS: Record<RingKind, Pattern> = {
  // Ring-back: a 440 + 480 Hz dual tone, 1.5 s on, 3 s off.
  outgoing: { periodMs: 4_500, volume: 0.12, tones: [{ at: 0, duration: 1.5, frequencies: [440, 480] }] },
  // Ringtone: two short trills, then a pause.
  incoming: { periodMs: 3_000, volume: 0.18, tones: [...trill(0), ...trill(0.9)] },
};

/** How far ahead of "now" a cycle is scheduled, so its first tone is never cut. */
const LEAD_SECONDS = 0.05;
const FADE_SECONDS = 0.015;
const SILENT = 0.0001;

let context: AudioContext | null = null;

function audioContext(): AudioContext {
  context ??= new AudioContext();
  return context;
}

function log(error: unknown): void {
  console.info('call sound not played', error);
}

/** Starts the looping sound of this kind; the returned function stops it (calling it again does nothing). */
export function startRinging(kind: RingKind): () => void {
  const pattern = PATTERNS[kind];
  const playing = new Set<OscillatorNode>();
  let output: GainNode | null = null;
  let timer: ReturnType<typeof setInterval> | undefined;
  let stopped = false;

  try {
    const audio = audioContext();
    const gain = audio.createGain();
    gain.gain.value = pattern.volume;
    gain.connect(audio.destination);
    output = gain;
    const cycle = () => {
      try {
        // While suspended (no interaction with the page yet) the clock stands still: scheduling now would pile
        // every missed cycle onto the same instant, so ask to resume and skip this one.
        if (audio.state !== 'running') {
          audio.resume().catch(log);
          return;
        }
        scheduleCycle(audio, gain, pattern, playing);
      } catch (error) {
        log(error);
      }
    };
    cycle();
    timer = setInterval(cycle, pattern.periodMs);
  } catch (error) {
    log(error);
  }

  return () => {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    for (const oscillator of playing) {
      try {
        oscillator.stop();
      } catch {
        // Already stopped.
      }
    }
    playing.clear();
    try {
      output?.disconnect();
    } catch (error) {
      log(error);
    }
  };
}

function scheduleCycle(audio: AudioContext, output: GainNode, pattern: Pattern, playing: Set<OscillatorNode>): void {
  const start = audio.currentTime + LEAD_SECONDS;
  for (const tone of pattern.tones) {
    const from = start + tone.at;
    const to = from + tone.duration;
    const level = 1 / tone.frequencies.length;
    for (const frequency of tone.frequencies) {
      const oscillator = audio.createOscillator();
      const envelope = audio.createGain();
      oscillator.type = 'sine';
      oscillator.frequency.value = frequency;
      envelope.gain.setValueAtTime(SILENT, from);
      envelope.gain.exponentialRampToValueAtTime(level, from + FADE_SECONDS);
      envelope.gain.setValueAtTime(level, to - FADE_SECONDS);
      envelope.gain.exponentialRampToValueAtTime(SILENT, to);
      oscillator.connect(envelope).connect(output);
      oscillator.onended = () => {
        playing.delete(oscillator);
        envelope.disconnect();
      };
      oscillator.start(from);
      oscillator.stop(to + FADE_SECONDS);
      playing.add(oscillator);
    }
  }
}

/** Plays the looping sound of this kind while `active` is true. */
export function useRinging(kind: RingKind, active: boolean): void {
  useEffect(() => (active ? startRinging(kind) : undefined), [kind, active]);
}
