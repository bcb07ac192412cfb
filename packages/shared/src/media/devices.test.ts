import { acquireCallMedia, CAMERA_CONSTRAINTS, MICROPHONE_CONSTRAINTS } from './devices';

class FakeStream {
  constructor(private readonly tracks: Array<{ kind: string }>) {}
  getAudioTracks() {
    return this.tracks.filter((track) => track.kind === 'audio');
  }
  getVideoTracks() {
    return this.tracks.filter((track) => track.kind === 'video');
  }
  getTracks() {
    return this.tracks;
  }
}

const asked: MediaStreamConstraints[] = [];

beforeAll(() => {
  (globalThis as unknown as { MediaStream: unknown }).MediaStream = class extends FakeStream {};
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: {
      getUserMedia: async (constraints: MediaStreamConstraints) => {
        asked.push(constraints);
        return new FakeStream(constraints.video ? [{ kind: 'video' }] : [{ kind: 'audio' }]);
      },
    },
  });
});

test('a call asks for the camera of spec §9 — up to 1280×720 at 30 fps, as ideal and upper bound — and a cleaned-up microphone', async () => {
  asked.length = 0;
  await acquireCallMedia(true);
  expect(asked).toEqual([
    { audio: { echoCancellation: true, autoGainControl: true, noiseSuppression: true } },
    { video: { width: { ideal: 1280, max: 1280 }, height: { ideal: 720, max: 720 }, frameRate: { ideal: 30, max: 30 } } },
  ]);
  expect(asked).toEqual([{ audio: MICROPHONE_CONSTRAINTS }, { video: CAMERA_CONSTRAINTS }]);
  // Never a minimum or an exact value: a camera that cannot do it still gives its best.
  for (const value of Object.values(CAMERA_CONSTRAINTS)) {
    expect(Object.keys(value as object).sort()).toEqual(['ideal', 'max']);
  }
});
