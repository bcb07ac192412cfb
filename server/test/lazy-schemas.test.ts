import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request } from './helpers/client.js';
import { startServer, type TestServer } from './helpers/server.js';

// The routes' schemas are compiled when first used (http/lazy-schemas.ts): a restart does not wait for all of
// them. A request must still be checked by its route's schema, and every schema of the app must compile.
describe('route schemas compiled on first use', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => server.close());

  it('checks a request against its schema compiled on the spot, and compiles every schema of the app', async () => {
    const waiting = server.app.lazySchemas.pending;
    assert.ok(waiting > 50, `${waiting} schemas wait to be compiled after a start`);

    // Invalid: no phone. The schema compiled by this first request refuses it with a 400 that says why.
    const refused = await request(server, 'POST', '/auth/send-code', { body: {} });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error, 'validation');
    assert.match(refused.body.message, /phone/);
    assert.ok(server.app.lazySchemas.pending < waiting, 'the route compiled its schema');

    assert.deepEqual(
      server.app.lazySchemas.compileSome(Infinity).map((error) => error.message),
      [],
      'every route schema compiles',
    );
    assert.equal(server.app.lazySchemas.pending, 0);
  });
});
