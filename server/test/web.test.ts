import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { startServer, type TestServer } from './helpers/server.js';

const SHELL_SCRIPT = `console.log(${JSON.stringify('shell '.repeat(2000))});`;
const REMOTE_ENTRY = `var remote = ${JSON.stringify('entry '.repeat(2000))};`;

/** A built file and, as the build writes them, its brotli and gzip copies. */
async function writeBuilt(file: string, content: string): Promise<void> {
  await writeFile(file, content);
  await writeFile(`${file}.br`, brotliCompressSync(content));
  await writeFile(`${file}.gz`, gzipSync(content));
}

/** A client root shaped like the built apps: the shell's page and a script, each remote's entry. */
async function makeClientRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'msgr-client-'));
  await mkdir(join(root, 'shell', 'dist'), { recursive: true });
  await writeFile(join(root, 'shell', 'dist', 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
  await writeBuilt(join(root, 'shell', 'dist', 'main.0123abcd.js'), SHELL_SCRIPT);
  for (const remote of ['mf-messenger', 'mf-calls', 'mf-staff']) {
    await mkdir(join(root, remote, 'dist'), { recursive: true });
    await writeBuilt(join(root, remote, 'dist', 'remoteEntry.js'), REMOTE_ENTRY);
  }
  return root;
}

describe('the client pages', () => {
  let server: TestServer;
  let clientRoot: string;
  before(async () => {
    clientRoot = await makeClientRoot();
    // mf-staff deployed on its own origin: its origin must be allowed to run scripts and be fetched.
    server = await startServer({ CLIENT_ROOT: clientRoot, MF_STAFF_URL: 'https://staff.example.com/mf/mf-manifest.json' });
  });
  after(async () => {
    await server.close();
    await rm(clientRoot, { recursive: true, force: true });
  });

  const directives = (csp: string) =>
    new Map(
      csp.split(';').map((part) => {
        const [name, ...values] = part.trim().split(/\s+/);
        return [name!, values] as const;
      }),
    );

  for (const path of ['/', '/login', '/some-chat-id', '/remotes/mf-messenger/remoteEntry.js', '/main.0123abcd.js']) {
    it(`${path} goes out with a strict CSP, no framing and a referrer policy`, async () => {
      const response = await fetch(`${server.url}${path}`);
      assert.equal(response.status, 200);
      const csp = response.headers.get('content-security-policy');
      assert.ok(csp, 'Content-Security-Policy is missing');
      const policy = directives(csp);
      assert.deepEqual(policy.get('frame-ancestors'), ["'none'"]);
      assert.deepEqual(policy.get('object-src'), ["'none'"]);
      assert.deepEqual(policy.get('base-uri'), ["'none'"]);
      assert.deepEqual(policy.get('default-src'), ["'self'"]);
      const scripts = policy.get('script-src') ?? [];
      assert.ok(scripts.includes("'self'"));
      assert.ok(scripts.includes('https://staff.example.com'), 'the remote origin from remotes.json may load scripts');
      for (const unsafe of ["'unsafe-inline'", "'unsafe-eval'", '*', 'data:', 'blob:', 'http:', 'https:']) {
        assert.ok(!scripts.includes(unsafe), `script-src must not allow ${unsafe}`);
      }
      assert.ok(policy.get('connect-src')?.includes('https://staff.example.com'), 'the remote manifest may be fetched');
      assert.ok(policy.get('media-src')?.includes('blob:'), 'recorded voice messages play from blob: URLs');
      assert.equal(response.headers.get('x-frame-options'), 'DENY');
      assert.equal(response.headers.get('referrer-policy'), 'same-origin');
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    });
  }

  for (const [path, content] of [
    ['/main.0123abcd.js', SHELL_SCRIPT],
    ['/remotes/mf-messenger/remoteEntry.js', REMOTE_ENTRY],
    ['/remotes/mf-calls/remoteEntry.js', REMOTE_ENTRY],
  ] as const) {
    it(`${path} is sent precompressed to browsers that accept it, with Vary: Accept-Encoding`, async () => {
      for (const [accept, expected] of [
        ['gzip, deflate, br, zstd', 'br'],
        ['gzip, deflate', 'gzip'],
        ['identity', null],
      ] as const) {
        // fetch decodes the body itself; the headers still say how it travelled.
        const response = await fetch(`${server.url}${path}`, { headers: { 'accept-encoding': accept } });
        assert.equal(response.status, 200);
        assert.equal(response.headers.get('content-encoding'), expected, `Accept-Encoding: ${accept}`);
        assert.match(response.headers.get('vary') ?? '', /accept-encoding/i);
        assert.match(response.headers.get('content-type') ?? '', /javascript/);
        assert.equal(await response.text(), content);
      }
    });
  }

  it('API answers keep their own headers (files keep their sandbox CSP)', async () => {
    const response = await fetch(`${server.url}/api/health`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-security-policy'), null);
  });
});

describe('health, as a load balancer asks it', () => {
  it('is 200 with a reachable database, and 503 "unhealthy" once the database is gone', async () => {
    const server = await startServer();
    const closeDb = server.db.close.bind(server.db);
    try {
      const healthy = await fetch(`${server.url}/api/health`);
      assert.equal(healthy.status, 200);
      assert.deepEqual(await healthy.json(), { status: 'ok', database: server.db.dialect, database_reachable: true });
      await closeDb();
      const lost = await fetch(`${server.url}/api/health`);
      assert.equal(lost.status, 503);
      assert.deepEqual(await lost.json(), { status: 'unhealthy', database: server.db.dialect, database_reachable: false });
    } finally {
      server.db.close = async () => undefined; // closed above
      await server.close();
    }
  });
});
