import type { MediaEngine, RoomMember, SignalSink } from './engine.js';

/**
 * A media engine loaded when it is first needed, or just after start-up: werift takes a quarter of a second of
 * the process's single thread to load (237 ms of a 1.7 s start measured here), and nothing but a call needs it, so
 * a restarted server listens and delivers messages without waiting for it. Until it has loaded there is no room,
 * so the questions about rooms have their answers without it.
 */
export class DeferredMediaEngine implements MediaEngine {
  private loading: Promise<MediaEngine> | null = null;
  private loaded: MediaEngine | null = null;
  private closed = false;

  constructor(private readonly load: () => Promise<MediaEngine>) {}

  /** Starts loading now (called once the server listens); the first call awaits the same load. */
  warmUp(): void {
    void this.engine().catch(() => undefined); // a failed load is reported to the call that needs it
  }

  async join(roomId: string, userId: number, send: SignalSink): Promise<RoomMember> {
    return (await this.engine()).join(roomId, userId, send);
  }

  participants(roomId: string): Map<number, string> {
    return this.loaded?.participants(roomId) ?? new Map();
  }

  publishing(roomId: string): Map<number, Array<'audio' | 'video'>> {
    return this.loaded?.publishing(roomId) ?? new Map();
  }

  closeRoom(roomId: string): void {
    this.loaded?.closeRoom(roomId);
  }

  close(): void {
    this.closed = true;
    this.loaded?.close();
  }

  private engine(): Promise<MediaEngine> {
    if (this.closed) return Promise.reject(new Error('the media engine is closed'));
    this.loading ??= this.load().then(
      (engine) => {
        // Closed while it loaded: nothing may keep running.
        if (this.closed) engine.close();
        else this.loaded = engine;
        return engine;
      },
      (error: unknown) => {
        this.loading = null; // the next call tries again
        throw error;
      },
    );
    return this.loading;
  }
}
