import type { FastifyReply, FastifyRequest } from 'fastify';
import Value from 'typebox/value';
import { HttpError } from './errors.js';
import { mismatches, successStatuses, type ContractRoute, type TSchema } from '@messenger/protocol';

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

/**
 * Test runs only (`CONTRACT_CHECKS`, a `preSerialization` hook): checks each answer as its handler made it against the
 * route's schema, before serialization — which would coerce a mistyped field (the text "5" for the integer 5) and so
 * hide the drift from every test that reads the answer. A mismatch is a 500 that names the first problems.
 */
export async function checkAnswerShape(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  const responses = request.routeOptions.schema?.response as Record<number, TSchema> | undefined;
  const schema = responses?.[reply.statusCode];
  if (!schema || Value.Check(schema, payload)) return payload;
  // An HttpError, so the test that made the request reads the reason in the answer (a plain error is a bare 500).
  throw new HttpError(500, 'outside_contract', `${request.method} ${request.routeOptions.url} answered outside the contract: ${mismatches(schema, payload)}`);
}
