// The wire contract: what server and client both say about every request, answer and limit, said once.
export { limits } from './limits.js';
export { Deleted, Id, Int, Nullable } from './common.js';
export { AddContactBody, AddContactResponse, Contact, ContactIdParams, EditContactBody, contactRoutes } from './contacts.js';
export { contractRoutes, type ContractRoute } from './routes.js';
export type { Static, TSchema } from 'typebox';
