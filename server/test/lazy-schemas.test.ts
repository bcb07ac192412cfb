import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request } from './helpers/client.js';
import { startServer, type TestServer } from './helpers/server.js';
import { lazySchemas } from '../src/http/lazy-schemas.js';

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

  it('reports a schema that does not compile, and throws that error at each use without compiling it again', () => {
    const schemas = lazySchemas();
    const compile = schemas.compilersFactory.buildValidator!({}, { customOptions: {}, plugins: [] } as never) as unknown as (
      definition: unknown,
    ) => (data: unknown) => boolean;
    const validate = compile({ schema: { type: 'nonsense' }, method: 'GET', url: '/broken', httpPart: 'querystring' });
    assert.equal(schemas.pending, 1);
    const failures = schemas.compileSome(Infinity);
    assert.equal(failures.length, 1);
    assert.equal(schemas.pending, 0);
    assert.throws(() => validate({}), (error) => error === failures[0]);
    assert.throws(() => validate({}), (error) => error === failures[0]);
  });

  it('compiles requests\' schemas without the meta-schema check, and reports a schema that fails only that check', () => {
    const schemas = lazySchemas();
    const compile = schemas.compilersFactory.buildValidator!({}, { customOptions: {}, plugins: [] } as never) as unknown as (
      definition: unknown,
    ) => (data: unknown) => boolean;
    // A title that is not a string: Ajv's meta-schema refuses it, its code generator does not look at it.
    const odd = { schema: { type: 'string', title: 5 }, method: 'GET', url: '/odd', httpPart: 'querystring' };
    const validate = compile(odd);
    assert.equal(validate('text'), true);
    compile(odd);
    const failures = schemas.compileSome(Infinity);
    assert.equal(failures.length, 1);
    assert.match(failures[0]!.message, /schema is invalid.*title/);
    assert.equal(schemas.pending, 0);
  });
});
