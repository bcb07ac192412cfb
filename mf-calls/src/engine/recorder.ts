import { ApiError, VOICE_BITS_PER_SECOND, VOICE_MIME, uploadFile } from '@messenger/shared';

/** Each chunk is a recorder of its own, so every file plays alone (a timeslice would leave later chunks headerless). */
const CHUNK_MS = 60_000;
const UPLOAD_ATTEMPTS = 3;

/**
 * Records my microphone during a call the server records (`record_audio`): audio/webm Opus at 64 kbps, a new
 * recorder every 60 s, each chunk uploaded to `/file/upload/meet-audio` (retried; dropped after 3 failures).
 * Stops when the call ends or recording fails.
 */
export class CallRecorder {
  private recorder: MediaRecorder | null = null;
  private rotation: ReturnType<typeof setInterval> | null = null;
  private stopped = false;

  constructor(
    private readonly track: MediaStreamTrack,
    private readonly chatId: number,
    private readonly messageId: number,
    private readonly role: number,
  ) {}

  start(): void {
    if (typeof MediaRecorder === 'undefined' || !MediaRecorder.isTypeSupported(VOICE_MIME)) return;
    this.next();
    this.rotation = setInterval(() => this.next(), CHUNK_MS);
  }

  stop(): void {
    this.stopped = true;
    if (this.rotation) clearInterval(this.rotation);
    this.rotation = null;
    this.finish();
  }

  private next(): void {
    this.finish();
    if (this.stopped || this.track.readyState === 'ended') return;
    try {
      const recorder = new MediaRecorder(new MediaStream([this.track]), { mimeType: VOICE_MIME, audioBitsPerSecond: VOICE_BITS_PER_SECOND });
      const parts: Blob[] = [];
      recorder.ondataavailable = (event) => {
        if (event.data.size > 0) parts.push(event.data);
      };
      recorder.onstop = () => {
        if (parts.length > 0) void this.upload(new Blob(parts, { type: 'audio/webm' }));
      };
      recorder.onerror = () => this.stop();
      recorder.start();
      this.recorder = recorder;
    } catch {
      this.stop();
    }
  }

  private finish(): void {
    const recorder = this.recorder;
    this.recorder = null;
    if (recorder && recorder.state !== 'inactive') recorder.stop();
  }

  private async upload(chunk: Blob): Promise<void> {
    const file = Object.assign(chunk, { name: `call-${this.messageId}-${Date.now()}.webm` });
    const path = `/file/upload/meet-audio?chat_id=${this.chatId}&message_id=${this.messageId}`;
    for (let attempt = 1; attempt <= UPLOAD_ATTEMPTS; attempt++) {
      try {
        await uploadFile(file, this.role, { path });
        return;
      } catch (error) {
        // Refused (the call is over, or this is no participant): retrying cannot help.
        if (error instanceof ApiError && error.status >= 400 && error.status < 500) return;
        await new Promise((resolve) => setTimeout(resolve, attempt * 2000));
      }
    }
  }
}
