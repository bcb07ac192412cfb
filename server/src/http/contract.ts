import { successStatuses, type ContractRoute } from '@messenger/protocol';

/** The success statuses of a route, as a type: 200, 201, or both. */
type Success<Route extends ContractRoute> = Route extends { status: 201 } ? 201 : Route extends { status: readonly [200, 201] } ? 200 | 201 : 200;

/** A route's Fastify schema, as the type provider reads it: exactly the parts the contract names. */
export type ContractSchema<Route extends ContractRoute> = Pick<Route, Extract<keyof Route, 'params' | 'querystring' | 'body'>> & {
  response: { [Status in Success<Route>]: Route['response'] };
};

/**
 * The Fastify schema of a route of the wire contract (packages/protocol): its params, query and body are validated
 * and its answer serialized by the contract's schemas — a field the contract does not name never leaves the server.
 */
export function contractSchema<const Route extends ContractRoute>(route: Route): ContractSchema<Route> {
  const schema: Record<string, unknown> = {
    response: Object.fromEntries(successStatuses(route).map((status) => [status, route.response])),
  };
  for (const part of ['params', 'querystring', 'body'] as const) if (route[part]) schema[part] = route[part];
  return schema as ContractSchema<Route>;
}
