import { expect, test } from './test';

test('the browser gets a real favicon', async ({ page, request }) => {
  const icon = await request.get('/favicon.ico');
  expect(icon.status()).toBe(200);
  expect(icon.headers()['content-type']).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
  // An ICO file: reserved 0, type 1, at least one image.
  const body = await icon.body();
  expect([...body.subarray(0, 4)]).toEqual([0, 0, 1, 0]);
  expect(body.readUInt16LE(4)).toBeGreaterThan(0);

  await page.goto('/login');
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', /favicon\.ico$/);
});

test('the shell and every remote are sent compressed (brotli, else gzip) with Vary: Accept-Encoding', async ({ request }) => {
  const page = await (await request.get('/login')).text();
  // The page is minified: attribute values may come without quotes.
  const scripts = [...page.matchAll(/<script[^>]+src="?([^"\s>]+\.js)/g)].map((match) => match[1]!);
  expect(scripts.length).toBeGreaterThan(0);
  const remotes = ((await (await request.get('/remotes.json')).json()) as { remotes: Array<{ entry: string }> }).remotes;
  const entries = remotes.map((remote) => remote.entry.replace(/mf-manifest\.json$/, 'remoteEntry.js'));
  for (const path of [...scripts, ...entries]) {
    for (const [accept, encoding] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip, deflate', 'gzip'],
    ] as const) {
      const response = await request.get(path, { headers: { 'accept-encoding': accept } });
      expect(response.status(), path).toBe(200);
      expect(response.headers()['content-encoding'], `${path} with ${accept}`).toBe(encoding);
      expect(response.headers()['vary'], path).toMatch(/accept-encoding/i);
    }
  }
});
