/** A refusal from the server (`{error, message}`) or a failure to reach it (status 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** The server's machine-readable code (`validation`, `chat_not_found`…), or `network`. */
    readonly code: string,
    /** The server's message, verbatim: spec §8 strings are mapped to translations by the UI. */
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get isNetworkError(): boolean {
    return this.status === 0;
  }
}
