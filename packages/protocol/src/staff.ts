import Type, { type Static } from 'typebox';
import { Deleted, Id, IdParams, Int, Nullable, PasswordText, Phone, UsernameChange } from './common.js';
import { limits } from './limits.js';
import { Me } from './users.js';

/** A person on the employees screen (admins only): their account, role and standing. */
export const Employee = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  username: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  role: Type.Integer(),
  notes: Type.String(),
  blocked: Type.Boolean(),
  deleted: Type.Boolean(),
  isMuted: Type.Boolean(),
  created_at: Type.String(),
  password_set: Type.Boolean(),
  /** People who joined through their invite link (guests and deleted accounts not counted). */
  invited_users: Type.Integer(),
});
export type Employee = Static<typeof Employee>;

/** Sign-in details an admin hands over, shown once. A password that was not changed is null. */
export const Credentials = Type.Object({
  phone: Nullable(Type.String()),
  password: Nullable(Type.String()),
  extra_password: Nullable(Type.String()),
});
export type Credentials = Static<typeof Credentials>;

/** Names are checked after trimming (1–60) by the server, to answer `invalid_name`. */
const Name = Type.String({ maxLength: 200 });
const Notes = Type.String({ maxLength: limits.notesMax });
/** A password being set: its rules (8–128 characters) are checked by the server, to answer `weak_password`. */
const NewPassword = Type.String({ maxLength: 1024 });

export const OwnPasswordBody = Type.Object(
  { password: NewPassword, extra_password: NewPassword, current_password: Type.Optional(PasswordText) },
  { additionalProperties: false },
);

export const EmployeesQuery = Type.Object({
  managers: Type.Optional(Type.Boolean()),
  query: Type.Optional(Type.String({ maxLength: limits.searchMax })),
  deleted: Type.Optional(Type.Boolean()),
});

export const CreateManagerBody = Type.Object({ phone: Phone, name: Name, notes: Type.Optional(Notes) }, { additionalProperties: false });

export const EditManagerBody = Type.Object(
  {
    user_id: Id,
    phone: Type.Optional(Phone),
    name: Type.Optional(Name),
    username: Type.Optional(UsernameChange),
    notes: Type.Optional(Notes),
    password: Type.Optional(NewPassword),
    extra_password: Type.Optional(NewPassword),
  },
  { additionalProperties: false },
);
export type EditManagerBody = Static<typeof EditManagerBody>;

export const RoleBody = Type.Object({ user_id: Id, role_id: Int({ minimum: 0, maximum: 3 }) }, { additionalProperties: false });

export const MuteBody = Type.Object({ user_id: Id, isMuted: Type.Boolean() }, { additionalProperties: false });

const EmployeeAnswer = Type.Object({ user: Employee });

/** Staff passwords and the employees screen (admins; `/user/password` is every staff member's own). */
export const staffRoutes = {
  ownPasswords: { method: 'POST', url: '/user/password', body: OwnPasswordBody, response: Type.Object({ user: Me }) },
  /** At most 200 people; `truncated` says there are more (a search finds them). */
  list: { method: 'GET', url: '/user/all', querystring: EmployeesQuery, response: Type.Object({ users: Type.Array(Employee), truncated: Type.Boolean() }) },
  createManager: {
    method: 'POST',
    url: '/user/manager',
    body: CreateManagerBody,
    status: 201,
    response: Type.Object({ user: Employee, credentials: Credentials }),
  },
  edit: { method: 'PUT', url: '/user/manager', body: EditManagerBody, response: Type.Object({ user: Employee, credentials: Type.Optional(Credentials) }) },
  setRole: { method: 'PUT', url: '/user/role', body: RoleBody, response: EmployeeAnswer },
  setMuted: { method: 'PUT', url: '/user/mute', body: MuteBody, response: EmployeeAnswer },
  remove: { method: 'DELETE', url: '/user/:id', params: IdParams, response: Deleted },
} as const;
