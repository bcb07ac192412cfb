import type { TSchema } from 'typebox';
import { contactRoutes } from './contacts.js';

/** Every route the contract describes, by domain (the server's contract test checks each is served by it). */
export const contractRoutes = { contacts: contactRoutes } as const;

/** One route of the contract: where it is, what it takes and what it answers. */
export interface ContractRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  body?: TSchema;
  params?: TSchema;
  querystring?: TSchema;
  response: TSchema;
}
