import type { FastifyServerOptions } from 'fastify';

/** Query parameters whose values never reach the logs. */
const SECRET_QUERY = /([?&](?:token|code|refresh_token|access_token)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]');
}

/**
 * pino options: tokens in headers and query strings, codes and passwords in bodies are redacted. On a terminal
 * outside production the lines are formatted for people (pino-pretty); otherwise they stay JSON for machines.
 */
export function loggerOptions(level: string, pretty = false): FastifyServerOptions['logger'] {
  return {
    level,
    ...(pretty ? { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' } } } : {}),
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'headers.authorization',
        '*.code',
        '*.password',
        '*.extra_password',
        '*.current_password',
        '*.ticket',
        '*.credentials',
        '*.password_hash',
        '*.extra_password_hash',
        '*.access_token',
        '*.refresh_token',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req(request: { method: string; url: string; ip?: string; id?: string }) {
        return { id: request.id, method: request.method, url: redactUrl(request.url), ip: request.ip };
      },
    },
  };
}
