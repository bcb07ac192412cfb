import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import { securityHeaders } from './security-headers.js';

/**
 * Files whose name stays the same from build to build; they must be revalidated on every load. Everything else is
 * content-hashed.
 */
const ENTRY_FILES =
  /(^|\/)(index\.html|mf-manifest\.json|mf-stats\.json|remoteEntry\.js|remotes\.json|favicon\.ico|sw\.js|manifest\.webmanifest|icons\/[^/]+)$/;

function cacheHeaders(reply: FastifyReply, path: string): void {
  reply.header('Cache-Control', ENTRY_FILES.test(path) ? 'no-cache' : 'public, max-age=31536000, immutable');
}

/**
 * Serves the built client: the shell at `/`, each remote under `/remotes/<name>/`, the remote list at
 * `/remotes.json`, and the shell's index.html for any other page path (client-side routes).
 */
export async function webRoutes(app: FastifyInstance): Promise<void> {
  const { clientRoot, remotes } = app.services.config;
  const shellDist = join(clientRoot, 'shell', 'dist');
  const hasShell = existsSync(join(shellDist, 'index.html'));
  const headers = securityHeaders(remotes);

  // The shell's page, every script and file of the client, and the pages' fallback: CSP, no framing, referrer.
  app.addHook('onSend', async (_request, reply, payload) => {
    for (const [name, value] of Object.entries(headers)) if (!reply.hasHeader(name)) reply.header(name, value);
    return payload;
  });

  app.get('/remotes.json', { config: { public: true } }, async (_request, reply) => {
    reply.header('Cache-Control', 'no-cache');
    // `name` is the federation name the remote was built with (mf-messenger → mf_messenger).
    return { remotes: remotes.map((remote) => ({ name: remote.name.replace(/-/g, '_'), entry: remote.manifest })) };
  });

  for (const remote of remotes) {
    const dist = join(clientRoot, remote.name, 'dist');
    if (!existsSync(dist)) continue;
    await app.register(fastifyStatic, {
      root: dist,
      prefix: `/remotes/${remote.name}/`,
      decorateReply: false,
      index: false,
      setHeaders: cacheHeaders,
      // The build writes .br and .gz beside each file: sent to browsers that accept them, with Vary.
      preCompressed: true,
    });
  }

  if (hasShell) {
    await app.register(fastifyStatic, {
      root: shellDist,
      prefix: '/',
      index: 'index.html',
      wildcard: true,
      setHeaders: cacheHeaders,
      preCompressed: true,
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const isPage =
      request.method === 'GET' && !path.startsWith('/api/') && !path.startsWith('/remotes/') && !/\.[a-z0-9]+$/i.test(path);
    if (isPage && hasShell) {
      return reply.header('Cache-Control', 'no-cache').type('text/html').sendFile('index.html', shellDist);
    }
    return reply.code(404).send({ error: 'not_found', message: `No route ${request.method} ${path}` });
  });
}
