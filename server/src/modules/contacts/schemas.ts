// The contacts routes' wire shapes live in the shared contract (packages/protocol), the client's as well.
export { AddContactBody, ContactIdParams, EditContactBody, contactRoutes } from '@messenger/protocol';
