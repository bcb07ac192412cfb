import { config } from '../config';

/**
 * The one place the client asks for the microphone, camera or screen, so device choice and refusals are
 * handled the same way everywhere (voice messages now; calls later).
 */
export class MediaAccessError extends Error {
  constructor(
    message: string,
    /** NotAllowedError (refused), NotFoundError (no device), NotReadableError (busy), … */
    readonly reason: string,
  ) {
    super(message);
    this.name = 'MediaAccessError';
  }
}

async function request(constraints: MediaStreamConstraints): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia) {
    throw new MediaAccessError('This browser cannot use the microphone or camera here (it needs HTTPS).', 'NotSupportedError');
  }
  try {
    return await navigator.mediaDevices.getUserMedia(constraints);
  } catch (error) {
    const name = error instanceof DOMException ? error.name : 'Error';
    throw new MediaAccessError(error instanceof Error ? error.message : String(error), name);
  }
}

/** The microphone: echo cancellation, gain control and noise suppression (spec §9). */
export const MICROPHONE_CONSTRAINTS: MediaTrackConstraints = { echoCancellation: true, autoGainControl: true, noiseSuppression: true };

/**
 * The camera (spec §9): up to 1280×720 at 30 fps, asked as the ideal and the upper bound, never as a minimum, so a
 * camera that cannot do it still gives its best, and the browser's encoder scales down when the network (or the
 * SFU's feedback) asks it to.
 */
export const CAMERA_CONSTRAINTS: MediaTrackConstraints = {
  width: { ideal: config.cameraMaxWidth, max: config.cameraMaxWidth },
  height: { ideal: config.cameraMaxHeight, max: config.cameraMaxHeight },
  frameRate: { ideal: config.cameraMaxFps, max: config.cameraMaxFps },
};

/** A microphone stream with echo cancellation, gain control and noise suppression (spec §9). */
export function acquireMicrophone(): Promise<MediaStream> {
  return request({ audio: MICROPHONE_CONSTRAINTS });
}

/** The camera, up to 1280×720 at 30 fps (spec §9). */
export function acquireCamera(): Promise<MediaStream> {
  return request({ video: CAMERA_CONSTRAINTS });
}

/**
 * A call's microphone and, when asked, camera. Without a camera (none, refused, busy) the call goes on with sound
 * only: `cameraError` tells why. Without a microphone it fails.
 */
export async function acquireCallMedia(withCamera: boolean): Promise<{ stream: MediaStream; cameraError: MediaAccessError | null }> {
  if (!withCamera) return { stream: await acquireMicrophone(), cameraError: null };
  // Both asked at once: a call's set-up waits for the slower of the two, not for their sum.
  const [microphone, camera] = await Promise.allSettled([acquireMicrophone(), acquireCamera()]);
  if (microphone.status === 'rejected') {
    if (camera.status === 'fulfilled') releaseStream(camera.value);
    throw microphone.reason;
  }
  if (camera.status === 'rejected') {
    const error = camera.reason as unknown;
    return { stream: microphone.value, cameraError: error instanceof MediaAccessError ? error : new MediaAccessError(String(error), 'Error') };
  }
  return { stream: new MediaStream([...microphone.value.getAudioTracks(), ...camera.value.getVideoTracks()]), cameraError: null };
}

/** The screen (or a window, or a tab) to share. */
export async function acquireScreen(): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getDisplayMedia) throw new MediaAccessError('This browser cannot share the screen.', 'NotSupportedError');
  try {
    return await navigator.mediaDevices.getDisplayMedia({ video: true, audio: false });
  } catch (error) {
    const name = error instanceof DOMException ? error.name : 'Error';
    throw new MediaAccessError(error instanceof Error ? error.message : String(error), name);
  }
}

/** Stops every track of a stream (releases the device and its indicator). */
export function releaseStream(stream: MediaStream | null | undefined): void {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

/** Spec §9 recording format: WebM with Opus at 64 kbps, when the browser supports it. */
export const VOICE_MIME = 'audio/webm;codecs=opus';
export const VOICE_BITS_PER_SECOND = 64_000;
