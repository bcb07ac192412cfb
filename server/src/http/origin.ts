import type { FastifyRequest } from 'fastify';

/** The origin people reach us at, for links we hand out (invite links): PUBLIC_URL, else the request's host. */
export function requestOrigin(request: FastifyRequest): string {
  return request.server.services.config.publicUrl ?? `${request.protocol}://${request.host}`;
}
