import type { FastifyBaseLogger } from 'fastify';

/**
 * Work the server repeats on a timer: once soon after it starts (`firstDelayMs`, at once by default; so a server
 * restarted more often than the interval, though not more often than that delay, still does it), then every
 * `intervalMs`. Runs never overlap; `stop()` waits for one in progress, so the
 * database can be closed after it. A failing run is logged and the next one still comes.
 */
export class PeriodicJob {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();
  private active = false;

  constructor(
    private readonly name: string,
    private readonly intervalMs: number,
    private readonly work: () => Promise<void>,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(firstDelayMs = 0): void {
    if (this.active) return;
    this.active = true;
    this.schedule(firstDelayMs);
  }

  async stop(): Promise<void> {
    this.active = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (!this.active) return;
    this.timer = setTimeout(() => {
      this.running = this.work()
        .catch((error: unknown) => this.log.error({ err: error }, `${this.name} failed`))
        .finally(() => this.schedule(this.intervalMs));
    }, delayMs);
    this.timer.unref();
  }
}
