import type { FastifyServerOptions } from 'fastify';

/** Query parameters whose values never reach the logs. */
const SECRET_QUERY = /([?&](?:token|code|refresh_token|access_token)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]');
}

/** pino options: tokens in headers and query strings, codes and passwords in bodies are redacted. */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization', '*.code', '*.password', '*.access_token', '*.refresh_token'],
      censor: '[redacted]',
    },
    serializers: {
      req(request: { method: string; url: string; ip?: string; id?: string }) {
        return { id: request.id, method: request.method, url: redactUrl(request.url), ip: request.ip };
      },
    },
  };
}
