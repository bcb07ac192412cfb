import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type TestServer } from './helpers/server.js';

/** A client root shaped like the built apps: the shell's page and a remote's entry and chunk. */
async function makeClientRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'msgr-client-'));
  await mkdir(join(root, 'shell', 'dist'), { recursive: true });
  await writeFile(join(root, 'shell', 'dist', 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
  await writeFile(join(root, 'shell', 'dist', 'main.0123abcd.js'), `console.log(${JSON.stringify('shell '.repeat(2000))});`);
  for (const remote of ['mf-messenger', 'mf-calls', 'mf-staff']) {
    await mkdir(join(root, remote, 'dist'), { recursive: true });
    await writeFile(join(root, remote, 'dist', 'remoteEntry.js'), `var ${remote.replace('-', '_')} = {};`);
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

  it('API answers keep their own headers (files keep their sandbox CSP)', async () => {
    const response = await fetch(`${server.url}/api/health`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-security-policy'), null);
  });
});
