import Value from 'typebox/value';
import { ChatClientFrame, chatServerFrameSchema, contractRoutes, flowFrameSchema, MeetingEnvelope, meetingFrameSchema, mismatches, type ContractRoute, type MeetingSender, type TSchema } from '@messenger/protocol';

/** An answer of the server that its own contract (packages/protocol) does not allow: a bug of one side or the other. */
export class ContractError extends Error {
  override name = 'ContractError';
}

// Fixed paths before those with a parameter: `/user/find` is not the profile of someone whose id is "find".
const knownRoutes = Object.values(contractRoutes)
  .flatMap((table) => Object.values(table) as ContractRoute[])
  .sort((a, b) => Number(a.url.includes(':')) - Number(b.url.includes(':')))
  .map((route) => ({ route, pattern: routePattern(route.url) }));

/** `/user/:id/presence` → /^\/user\/(?<id>[^/]+)\/presence$/: each `:name` one path segment, the rest as written. */
function routePattern(url: string): RegExp {
  const parts = url.split(/(:[A-Za-z_]\w*)/);
  return new RegExp(`^${parts.map((part) => (part.startsWith(':') ? `(?<${part.slice(1)}>[^/]+)` : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('')}$`);
}

/**
 * Whether `path` is a request of `route`: its pattern matches and its parameters are what the route takes
 * (`/chat/recording`, a route of its own, is not the chat whose id is "recording").
 */
function isRequestOf(route: ContractRoute, pattern: RegExp, method: string, path: string): boolean {
  if (route.method !== method) return false;
  const match = pattern.exec(path);
  if (!match) return false;
  if (!route.params) return true;
  try {
    const params = Object.fromEntries(Object.entries(match.groups ?? {}).map(([name, value]) => [name, decodeURIComponent(value)]));
    return Value.Check(route.params, Value.Convert(route.params, params));
  } catch {
    return false; // a malformed escape is no parameter of ours
  }
}

/**
 * Checks a successful answer against the contract's schema of its route. Used in development builds and unit
 * tests only (the API client calls it behind a `NODE_ENV` test that production builds drop, and with it this
 * module and the schemas), so a drift fails loudly where it is made, at no cost to the shipped app.
 */
export function checkAnswer(method: string, path: string, body: unknown): void {
  const known = knownRoutes.find(({ route, pattern }) => isRequestOf(route, pattern, method, path));
  if (!known || Value.Check(known.route.response, body)) return;
  fail(`${method} ${path} answered outside the contract: ${mismatches(known.route.response, body)}`);
}

/** Checks a frame of the live-event socket (`/user/flow`): its kind is known and its payload is the contract's. */
export function checkFlowFrame(frame: { seq?: unknown; event_type?: unknown; additional_info?: unknown }): void {
  checkFrame('/user/flow', flowFrameSchema(frame), frame.additional_info, frame);
}

/** Checks an answer of the chat socket against the contract. */
export function checkChatFrame(frame: { type?: unknown }): void {
  checkFrame('/chat/socket', chatServerFrameSchema(frame), frame, frame);
}

/** Checks a frame this client is about to send on the chat socket: the server would refuse one outside the contract. */
export function checkSentChatFrame(frame: unknown): void {
  if (!Value.Check(ChatClientFrame, frame)) fail(`a chat-socket frame outside the contract was about to be sent: ${mismatches(ChatClientFrame, frame)}`);
}

/**
 * Checks a frame of the meeting socket as it travels (`{event, data}`, data a JSON text): one the server sent, or
 * one this client is about to send (which the server would refuse outside the contract).
 */
export function checkMeetingFrame(frame: unknown, from: MeetingSender): void {
  const breach = (problem: string): never => {
    const shown = JSON.stringify(frame)?.slice(0, 300);
    return fail(from === 'server' ? `/meet/room sent a frame ${problem} — ${shown}` : `a meeting-socket frame ${problem} was about to be sent — ${shown}`);
  };
  if (!Value.Check(MeetingEnvelope, frame)) return breach(`outside the contract: ${mismatches(MeetingEnvelope, frame)}`);
  const schema = meetingFrameSchema(frame, from);
  if (!schema) return breach('the contract does not know');
  let data: unknown;
  try {
    data = JSON.parse(frame.data);
  } catch {
    return breach('whose data is no JSON text');
  }
  if (!Value.Check(schema, data)) breach(`outside the contract: ${mismatches(schema, data)}`);
}

function checkFrame(socket: string, schema: TSchema | undefined, part: unknown, frame: object): void {
  if (!schema) fail(`${socket} sent a frame the contract does not know: ${JSON.stringify(frame).slice(0, 300)}`);
  else if (!Value.Check(schema, part)) fail(`${socket} sent a frame outside the contract: ${mismatches(schema, part)} — ${JSON.stringify(frame).slice(0, 300)}`);
}

function fail(message: string): never {
  const error = new ContractError(message);
  // Also in the console: a caller that catches every error (and shows a generic notice) must not hide it.
  console.error(error);
  throw error;
}
