import { startRinging } from './ringing';

// jsdom has no Web Audio: a minimal AudioContext that records what is made of it.
class FakeParam {
  value = 0;
  setValueAtTime = jest.fn();
  exponentialRampToValueAtTime = jest.fn();
}
class FakeNode {
  connect = jest.fn((next: unknown) => next);
  disconnect = jest.fn();
}
class FakeGain extends FakeNode {
  gain = new FakeParam();
}
class FakeOscillator extends FakeNode {
  type = 'sine';
  frequency = new FakeParam();
  onended: (() => void) | null = null;
  start = jest.fn();
  stop = jest.fn();
}
class FakeAudioContext {
  static instances: FakeAudioContext[] = [];
  state: AudioContextState = 'running';
  currentTime = 0;
  destination = new FakeNode();
  gains: FakeGain[] = [];
  oscillators: FakeOscillator[] = [];
  resume = jest.fn(async () => {
    this.state = 'running';
  });
  constructor() {
    FakeAudioContext.instances.push(this);
  }
  createGain() {
    const gain = new FakeGain();
    this.gains.push(gain);
    return gain;
  }
  createOscillator() {
    const oscillator = new FakeOscillator();
    this.oscillators.push(oscillator);
    return oscillator;
  }
}

const audio = () => FakeAudioContext.instances[0]!;

beforeEach(() => {
  jest.useFakeTimers();
});

afterEach(() => {
  jest.useRealTimers();
});

test('only logs when there is no Web Audio, and its stop still works', () => {
  const info = jest.spyOn(console, 'info').mockImplementation(() => {});
  const stop = startRinging('incoming');
  expect(info).toHaveBeenCalledWith('call sound not played', expect.anything());
  expect(() => stop()).not.toThrow();
  info.mockRestore();
});

describe('with Web Audio', () => {
  beforeAll(() => {
    Object.assign(window, { AudioContext: FakeAudioContext });
  });

  beforeEach(() => {
    const context = FakeAudioContext.instances[0];
    if (context) {
      context.state = 'running';
      context.gains = [];
      context.oscillators = [];
    }
  });

  test('plays the incoming ringtone in a loop until stopped', () => {
    const stop = startRinging('incoming');
    expect(FakeAudioContext.instances).toHaveLength(1);
    const [output] = audio().gains;
    expect(output!.connect).toHaveBeenCalledWith(audio().destination);
    const first = audio().oscillators.length;
    expect(first).toBeGreaterThan(0);
    expect(audio().oscillators.every((oscillator) => oscillator.start.mock.calls.length === 1)).toBe(true);

    jest.advanceTimersByTime(3_000);
    expect(audio().oscillators.length).toBe(first * 2);

    stop();
    expect(audio().oscillators.every((oscillator) => oscillator.stop.mock.calls.length >= 1)).toBe(true);
    expect(output!.disconnect).toHaveBeenCalled();
    jest.advanceTimersByTime(30_000);
    expect(audio().oscillators.length).toBe(first * 2);
    expect(() => stop()).not.toThrow();
  });

  test('plays the outgoing ring-back as a dual tone, reusing the one context', () => {
    const stop = startRinging('outgoing');
    expect(FakeAudioContext.instances).toHaveLength(1);
    expect(audio().oscillators.map((oscillator) => oscillator.frequency.value)).toEqual([440, 480]);
    jest.advanceTimersByTime(4_500);
    expect(audio().oscillators).toHaveLength(4);
    stop();
  });

  test('waits for a suspended context to resume instead of piling tones up', () => {
    audio().state = 'suspended';
    const stop = startRinging('outgoing');
    expect(audio().resume).toHaveBeenCalled();
    expect(audio().oscillators).toHaveLength(0);
    stop();
  });
});
