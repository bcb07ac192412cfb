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

/** A microphone stream with echo cancellation, gain control and noise suppression (spec §9). */
export function acquireMicrophone(): Promise<MediaStream> {
  return request({ audio: { echoCancellation: true, autoGainControl: true, noiseSuppression: true } });
}

/** Stops every track of a stream (releases the device and its indicator). */
export function releaseStream(stream: MediaStream | null | undefined): void {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

/** Spec §9 recording format: WebM with Opus at 64 kbps, when the browser supports it. */
export const VOICE_MIME = 'audio/webm;codecs=opus';
export const VOICE_BITS_PER_SECOND = 64_000;
