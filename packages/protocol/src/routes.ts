import type { Static, TSchema } from 'typebox';
import { authRoutes } from './auth.js';
import { callRoutes } from './calls.js';
import { chatRoutes } from './chats.js';
import { contactRoutes } from './contacts.js';
import { fileRoutes } from './files.js';
import { messageRoutes } from './messages.js';
import { pushRoutes } from './push.js';
import { staffRoutes } from './staff.js';
import { statsRoutes } from './stats.js';
import { userRoutes } from './users.js';

/** Every route the contract describes, by domain (the server's contract test checks each is served by it). */
export const contractRoutes = {
  auth: authRoutes,
  calls: callRoutes,
  chats: chatRoutes,
  contacts: contactRoutes,
  files: fileRoutes,
  messages: messageRoutes,
  push: pushRoutes,
  staff: staffRoutes,
  stats: statsRoutes,
  users: userRoutes,
} as const;

/** One route of the contract: where it is, what it takes and what it answers. */
export interface ContractRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  body?: TSchema;
  params?: TSchema;
  querystring?: TSchema;
  /** The success status when it is not 200; both when the route answers 201 for what it made and 200 for what already was. */
  status?: 201 | readonly [200, 201];
  response: TSchema;
}

/** The statuses a route answers with success. */
export function successStatuses(route: ContractRoute): readonly number[] {
  if (route.status === undefined) return [200];
  return typeof route.status === 'number' ? [route.status] : route.status;
}

/** What a route of the contract answers, as a type: `Answer<typeof chatRoutes.list>`. */
export type Answer<Route extends { response: TSchema }> = Static<Route['response']>;
