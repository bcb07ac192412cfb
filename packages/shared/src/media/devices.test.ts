import { acquireCallMedia, CAMERA_CONSTRAINTS, MICROPHONE_CONSTRAINTS } from './devices';
import { FakeMediaStream as FakeStream, FakeMediaTrack } from '../testing/media';

const asked: MediaStreamConstraints[] = [];

beforeAll(() => {
  (globalThis as unknown as { MediaStream: unknown }).MediaStream = FakeStream;
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: {
      getUserMedia: async (constraints: MediaStreamConstraints) => {
        asked.push(constraints);
        return new FakeStream([new FakeMediaTrack(constraints.video ? 'video' : 'audio')]);
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

describe('a call whose devices are refused', () => {
  const original = () => navigator.mediaDevices.getUserMedia;
  let restore: typeof navigator.mediaDevices.getUserMedia;
  beforeEach(() => {
    restore = original();
  });
  afterEach(() => {
    navigator.mediaDevices.getUserMedia = restore;
  });

  test('without a camera it goes on with sound only and says why', async () => {
    navigator.mediaDevices.getUserMedia = (async (constraints: MediaStreamConstraints) => {
      if (constraints.video) throw new DOMException('no camera', 'NotFoundError');
      return new FakeStream([new FakeMediaTrack('audio')]);
    }) as unknown as typeof navigator.mediaDevices.getUserMedia;
    const { stream, cameraError } = await acquireCallMedia(true);
    expect(stream.getVideoTracks()).toHaveLength(0);
    expect(stream.getAudioTracks()).toHaveLength(1);
    expect(cameraError?.reason).toBe('NotFoundError');
  });

  test('without a microphone it fails, and the camera asked at the same time is let go', async () => {
    const camera = new FakeMediaTrack('video');
    navigator.mediaDevices.getUserMedia = (async (constraints: MediaStreamConstraints) => {
      if (constraints.audio) throw new DOMException('refused', 'NotAllowedError');
      return new FakeStream([camera]);
    }) as unknown as typeof navigator.mediaDevices.getUserMedia;
    await expect(acquireCallMedia(true)).rejects.toMatchObject({ reason: 'NotAllowedError' });
    expect(camera.stopped).toBe(true);
  });
});
