import Type from 'typebox';
import { USERNAME_PATTERN } from '../users/schemas.js';
import { PasswordText, Phone } from '../auth/schemas.js';
import { Id, Int } from '../../http/schema-types.js';
import { limits } from '@messenger/protocol';

/** Names are checked after trimming (1–60) in the service, to answer `invalid_name`. */
const Name = Type.String({ maxLength: 200 });
export const NOTES_MAX = limits.notesMax;
const Notes = Type.String({ maxLength: NOTES_MAX });
/** A password being set: its rules (8–128 characters) are checked in the service, to answer `weak_password`. */
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
    username: Type.Optional(Type.Union([Type.String({ pattern: USERNAME_PATTERN }), Type.Literal(''), Type.Null()])),
    notes: Type.Optional(Notes),
    password: Type.Optional(NewPassword),
    extra_password: Type.Optional(NewPassword),
  },
  { additionalProperties: false },
);

export const RoleBody = Type.Object({ user_id: Id, role_id: Int({ minimum: 0, maximum: 3 }) }, { additionalProperties: false });

export const MuteBody = Type.Object({ user_id: Id, isMuted: Type.Boolean() }, { additionalProperties: false });

export const UserIdParams = Type.Object({ id: Id });
