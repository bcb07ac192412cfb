/**
 * Every refusal the API gives: an HTTP status, a stable machine-readable `error` code and a human `message`.
 * Where the spec names a server string (§8: "no such user", "you are banned", …) that string is the message,
 * unchanged, so clients can map it to a translation in one table.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code = 'bad_request') => new HttpError(400, code, message);
export const unauthorized = (message = 'Authentication required', code = 'unauthorized') =>
  new HttpError(401, code, message);
export const forbidden = (message = 'You are not allowed to do this', code = 'forbidden') =>
  new HttpError(403, code, message);
export const notFound = (message = 'Not found', code = 'not_found') => new HttpError(404, code, message);
/** A call's room lives on a node of the cluster that cannot be reached now. */
export const callNodeUnavailable = () => new HttpError(503, 'call_node_unavailable', 'The server holding this call is not available');
export const conflict = (message: string, code = 'conflict') => new HttpError(409, code, message);
export const tooManyRequests = (message: string, retryAfterSeconds: number, code = 'too_many_requests') =>
  new HttpError(429, code, message, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });

/** Server strings of spec §8, sent verbatim as `message`: the wire contract's, which the client knows too. */
export { ServerStrings } from '@messenger/protocol';
