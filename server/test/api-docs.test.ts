// docs/api.md against the wire contract (packages/protocol) and the server: every route of the contract is
// documented, every documented route that answers JSON is on the contract (the few deliberately outside it are
// listed below with the reason), and every route the server registers is documented and every documented one served.
// What the routes take and answer is checked against the contract by contract.test.ts; this keeps the page whole.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { contractRoutes, type ContractRoute } from '@messenger/protocol';
import { startServer, type TestServer } from './helpers/server.js';

const readDocs = (name: string) => readFileSync(new URL(`../../docs/${name}`, import.meta.url), 'utf8');
const docs = readDocs('api.md');

/**
 * One route as `METHOD /full/path`, its path parameters however written (`:id` in the contract, `{id}` in the docs,
 * `*` for a path of several segments on the server) made `{}`, and any query or optional part (`?code=`,
 * `[?code=]`) left off. `path` is relative to `/api` unless `absolute`.
 */
function routeKey(method: string, path: string, absolute = false): string {
  const bare = path.split(/[?[\s]/)[0]!.replace(/\/$/, '') || '/';
  const normalized = bare.replace(/\{[^}/]*\}|:[A-Za-z_][A-Za-z0-9_]*|\*/g, '{}');
  return `${method} ${absolute ? normalized : `/api${normalized === '/' ? '' : normalized}`}`;
}

/**
 * The routes JSON does not fit, or that are not the product's API, each with why it is outside the contract. Full
 * paths, written as the docs write them. Each must be documented, served and off the contract (the tests below).
 */
const outsideTheContract: Record<string, string> = {
  'GET /api/user/flow': 'a socket: the live events, whose frames are schemas of their own (docs/protocol.md)',
  'GET /api/chat/socket': 'a socket: sending messages, whose frames are schemas of their own (docs/protocol.md)',
  'GET /api/meet/room/{chat_id}/websocket': 'a socket: a call’s signalling, `{event, data}` frames',
  'GET /api/receive/{path}': 'bytes: a stored file, its key a media token',
  'GET /api/specific/file': 'bytes: a stored file as an attachment',
  'GET /api/receive/admin/{path}': 'bytes: a stored file for an admin media token',
  'GET /api/specific/admin/file': 'bytes: a stored file as an attachment, for an admin media token',
  'POST /api/auth/sign-out': 'answers 204, no body',
  'PUT /api/push/subscription': 'answers 204, no body',
  'DELETE /api/push/subscription': 'answers 204, no body',
  'GET /api/health': 'the load balancer’s probe, not the product’s API (it answers 503 as well)',
  'GET /api/dev/sms': 'the development SMS outbox, absent with a real SMS provider',
  'GET /remotes.json': 'not under /api: the client’s list of remotes, served beside its files',
};
const outsideKeys = new Map(
  Object.keys(outsideTheContract).map((written) => {
    const [method, path] = written.split(' ') as [string, string];
    return [routeKey(method, path, true), written];
  }),
);

/**
 * The routes docs/api.md documents: the backticked `METHOD /path` at the start of each table row's first cell (a
 * cell may name several), relative to `/api` unless the cell says *(not under /api)*; and the sockets, documented
 * under headings of their own here and in docs/protocol.md (`## … \`/api/meet/room/{chat_id}/websocket?token=…\``).
 */
function documentedRoutes(): Set<string> {
  const routes = new Set<string>();
  let fenced = false;
  for (const line of docs.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    if (fenced || !line.startsWith('|')) continue;
    const first = line.split(/(?<!\\)\|/)[1] ?? '';
    for (const [, method, path] of first.matchAll(/`(GET|POST|PUT|PATCH|DELETE) (\/[^`]*)`/g)) {
      routes.add(routeKey(method!, path!, first.includes('not under /api')));
    }
  }
  for (const text of [docs, readDocs('protocol.md')]) {
    for (const [, path] of text.matchAll(/^#+ [^\n`]*`\/api(\/[^`]*)`/gm)) routes.add(routeKey('GET', path!));
  }
  return routes;
}

const contract = new Map(
  Object.values(contractRoutes)
    .flatMap((table) => Object.values(table) as ContractRoute[])
    .map((route) => [routeKey(route.method, route.url), route]),
);

describe('docs/api.md, the wire contract and the routes served', () => {
  const documented = documentedRoutes();
  let server: TestServer;
  let served: Set<string>;
  before(async () => {
    server = await startServer();
    served = new Set(server.app.routeList.map((route) => routeKey(route.method, route.url, true)));
  });
  after(() => server.close());

  it('finds the routes of the page', () => {
    // A parser that found nothing would pass everything below.
    assert.ok(documented.size >= contract.size, `${documented.size} routes documented`);
    assert.ok(documented.has('POST /api/auth/send-code') && documented.has('GET /api/user/{}') && documented.has('GET /remotes.json'));
  });

  it('documents every route of the contract', () => {
    const undocumented = [...contract.keys()].filter((key) => !documented.has(key));
    assert.deepEqual(undocumented, [], 'routes of the contract docs/api.md does not document');
  });

  it('has on the contract every documented route that answers JSON; the others are listed here with the reason', () => {
    const offContract = [...documented].filter((key) => !contract.has(key)).sort();
    const unexplained = offContract.filter((key) => !outsideKeys.has(key));
    assert.deepEqual(unexplained, [], 'documented routes neither on the contract nor listed as outside it');
    const stale = [...outsideKeys].filter(([key]) => !offContract.includes(key)).map(([, written]) => written);
    assert.deepEqual(stale, [], 'routes listed as outside the contract that are on it, or not documented');
  });

  // Every route the app registers, as a test server has them: the development outbox is there (the dev SMS
  // provider), the client's static files are not (no client build): they are files, not routes of the API.
  it('documents every route the server registers', () => {
    assert.ok(served.size >= contract.size + outsideKeys.size, `${served.size} routes served`);
    const undocumented = [...served].filter((key) => !documented.has(key)).sort();
    assert.deepEqual(undocumented, [], 'routes the server registers that docs/api.md does not document');
  });

  it('serves every documented route', () => {
    const stale = [...documented].filter((key) => !served.has(key)).sort();
    assert.deepEqual(stale, [], 'routes docs/api.md documents that the server does not register');
  });
});
