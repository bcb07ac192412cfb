import type { TSchema } from 'typebox';
import { contactRoutes } from './contacts.js';
import { fileRoutes } from './files.js';
import { staffRoutes } from './staff.js';
import { statsRoutes } from './stats.js';
import { userRoutes } from './users.js';

/** Every route the contract describes, by domain (the server's contract test checks each is served by it). */
export const contractRoutes = { contacts: contactRoutes, files: fileRoutes, staff: staffRoutes, stats: statsRoutes, users: userRoutes } as const;

/** One route of the contract: where it is, what it takes and what it answers. */
export interface ContractRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  body?: TSchema;
  params?: TSchema;
  querystring?: TSchema;
  /** The success status when it is not 200. */
  status?: 201;
  response: TSchema;
}
