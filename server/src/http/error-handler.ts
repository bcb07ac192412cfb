import type { FastifyError, FastifyInstance } from 'fastify';
import { HttpError } from './errors.js';

const FASTIFY_ERROR_NAMES: Record<number, string> = { 403: 'forbidden', 404: 'not_found', 413: 'payload_too_large', 415: 'unsupported_media_type' };

/** Turns every failure into `{error, message}` with a 4xx for the caller's mistakes and a bare 500 otherwise. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).headers(error.headers).send({ error: error.code, message: error.message });
    }
    if ('validation' in error && error.validation) {
      return reply.code(400).send({ error: 'validation', message: error.message });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own 4xx: malformed JSON, wrong content type, body too large…
      return reply.code(status).send({ error: FASTIFY_ERROR_NAMES[status] ?? 'bad_request', message: error.message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ error: 'internal', message: 'Internal server error' });
  });
}
