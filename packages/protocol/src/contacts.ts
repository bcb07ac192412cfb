import Type, { type Static } from 'typebox';
import { Deleted, Id, IdParams, Nullable } from './common.js';
import { limits } from './limits.js';

/** A contact as its owner sees it (spec §3 Contact). `id` is the contact's user id. */
export const Contact = Type.Object({
  id: Type.Integer(),
  /** The name the owner gave them. */
  alias_name: Type.String(),
  /** The name they gave themselves. */
  name: Type.String(),
  username: Nullable(Type.String()),
  /** Only where the owner typed the number in themselves (added or invited by number). */
  phone: Nullable(Type.String()),
  avatar: Nullable(Type.String()),
  is_deleted_contact: Type.Boolean(),
  deleted: Type.Boolean(),
});
export type Contact = Static<typeof Contact>;

const ContactName = Type.String({ maxLength: limits.nameMax });

/** `POST /user/contacts/add`: by phone (an unknown phone is invited by SMS) or by username (`@` optional). */
export const AddContactBody = Type.Object(
  {
    user_phone: Type.Optional(Type.String({ maxLength: limits.phoneMaxLength })),
    name: ContactName,
    username: Type.Optional(Type.String({ maxLength: limits.usernameMax + 1 })),
  },
  { additionalProperties: false },
);
export type AddContactBody = Static<typeof AddContactBody>;

export const AddContactResponse = Type.Object({
  added: Type.Boolean(),
  /** The phone has no account yet: an invitation was sent and the contact appears when they join. */
  invited: Type.Boolean(),
  contact: Type.Optional(Contact),
});
export type AddContactResponse = Static<typeof AddContactResponse>;

/** `PUT /user/contacts/edit`: the owner renames a contact. */
export const EditContactBody = Type.Object({ user_id: Id, name: ContactName }, { additionalProperties: false });

export const contactRoutes = {
  list: { method: 'GET', url: '/user/contacts', response: Type.Object({ contacts: Type.Array(Contact) }) },
  add: { method: 'POST', url: '/user/contacts/add', body: AddContactBody, response: AddContactResponse },
  edit: { method: 'PUT', url: '/user/contacts/edit', body: EditContactBody, response: Type.Object({ contact: Contact }) },
  remove: { method: 'DELETE', url: '/user/contacts/:id', params: IdParams, response: Deleted },
} as const;
