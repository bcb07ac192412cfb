import Value from 'typebox/value';
import { contractRoutes, type ContractRoute } from '@messenger/protocol';

/** An answer of the server that its own contract (packages/protocol) does not allow: a bug of one side or the other. */
export class ContractError extends Error {
  override name = 'ContractError';
}

// Fixed paths before those with a parameter: `/user/find` is not the profile of someone whose id is "find".
const knownRoutes = Object.values(contractRoutes)
  .flatMap((table) => Object.values(table) as ContractRoute[])
  .sort((a, b) => Number(a.url.includes(':')) - Number(b.url.includes(':')))
  .map((route) => ({ route, pattern: routePattern(route.url) }));

/** `/user/:id/presence` → /^\/user\/[^/]+\/presence$/: each `:name` one path segment, the rest as written. */
function routePattern(url: string): RegExp {
  const parts = url.split(/(:[A-Za-z_]\w*)/);
  return new RegExp(`^${parts.map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('')}$`);
}

/**
 * Checks a successful answer against the contract's schema of its route. Used in development builds and unit
 * tests only (the API client calls it behind a `NODE_ENV` test that production builds drop, and with it this
 * module and the schemas), so a drift fails loudly where it is made, at no cost to the shipped app.
 */
export function checkAnswer(method: string, path: string, body: unknown): void {
  const known = knownRoutes.find(({ route, pattern }) => route.method === method && pattern.test(path));
  if (!known || Value.Check(known.route.response, body)) return;
  const errors = Value.Errors(known.route.response, body)
    .slice(0, 3)
    .map((error) => `${error.instancePath || '/'} ${error.message}`);
  throw new ContractError(`${method} ${path} answered outside the contract: ${errors.join('; ')}`);
}
