/**
 * Reads of one kind, one at a time: the requests that arrive while one read is on its way are answered together
 * by the next, one query for all of them (`readAll`, which answers each request in the order given). An idle
 * server reads at once for a lone request; a busy one reads less often for more. Nothing is cached: every answer
 * is read after its request arrived. The price: a read that is slow to come back holds up every request behind
 * it, where it held up only its own.
 *
 * What it is for: a restarted server has every client reconnecting at once, and the embedded database runs one
 * statement at a time; 400 primary-key reads one after another took 120–570 ms there (warm to cold, 2026-11-28),
 * the same ids read 20 at a time 11–110 ms, time the crowd's messages waited behind them.
 */
export class BatchedReads<Request, Answer> {
  private waiting: Array<{ request: Request; resolve(answer: Answer): void; reject(error: unknown): void }> = [];
  private reading = false;

  constructor(
    private readonly readAll: (requests: Request[]) => Promise<Answer[]>,
    /** Requests answered by one query at most; more wait for the next. */
    private readonly mostPerRead = 500,
  ) {}

  read(request: Request): Promise<Answer> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ request, resolve, reject });
      if (!this.reading) {
        this.reading = true;
        // The rest of this turn's requests join the first.
        setImmediate(() => void this.readWaiting());
      }
    });
  }

  private async readWaiting(): Promise<void> {
    while (this.waiting.length > 0) {
      const part = this.waiting.splice(0, this.mostPerRead);
      try {
        const answers = await this.readAll(part.map((waiter) => waiter.request));
        part.forEach((waiter, index) => waiter.resolve(answers[index]!));
      } catch (error) {
        for (const waiter of part) waiter.reject(error);
      }
    }
    this.reading = false;
  }
}
