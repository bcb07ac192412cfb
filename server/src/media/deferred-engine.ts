import type { MediaEngine, RoomMember, MeetingSink } from './engine.js';

/**
 * A media engine loaded when a call first needs it: werift takes a quarter of a second of the process's single
 * thread to load (237 ms of a 1.7 s start measured here), so a restarted server listens and delivers messages
 * without it; a call starting warms it up while it rings, and a join waits for the load. Until it has loaded no
 * room exists, so the questions about rooms are answered without it (a room closed meanwhile: see
 * CallsService.connect, which looks at the call again after joining).
 */
export class DeferredMediaEngine implements MediaEngine {
  private loading: Promise<MediaEngine> | null = null;
  private loaded: MediaEngine | null = null;
  private closed = false;

  constructor(
    private readonly load: () => Promise<MediaEngine>,
    private readonly onLoadError: (error: unknown) => void = () => undefined,
  ) {}

  /** Starts loading now (a call is ringing); the first join awaits the same load. */
  warmUp(): void {
    void this.engine().catch((error: unknown) => {
      if (!this.closed) this.onLoadError(error);
    });
  }

  async join(roomId: string, userId: number, send: MeetingSink): Promise<RoomMember> {
    const engine = await this.engine();
    if (this.closed) throw new Error('the media engine is closed');
    return engine.join(roomId, userId, send);
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
        // Closed while it loaded: nothing may keep running, and no join waiting for it may start one.
        if (this.closed) {
          engine.close();
          throw new Error('the media engine is closed');
        }
        this.loaded = engine;
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
