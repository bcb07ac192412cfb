import type { Employee } from '@messenger/protocol';
/** A person as the employees screen shows them (docs/api.md, issue 4: Employee). */
/** A person on the employees screen, and sign-in details handed over once: the contract's (packages/protocol). */
export type EmployeeView = Employee;
export type { Credentials } from '@messenger/protocol';

export interface EmployeeRow extends Record<string, unknown> {
  id: number;
  name: string;
  username: string | null;
  phone: string | null;
  role: number;
  notes: string;
  blocked: boolean;
  deleted: boolean;
  is_muted: boolean;
  created_at: Date | string;
  password_set: boolean;
  invited_users: number;
}

/**
 * The people who count in invitation figures (Employee.invited_users, statistics): real accounts that are still
 * there — guests (temporary) and deleted accounts are left out. `alias` is the users table's alias.
 */
export function joined(alias: string): string {
  return `NOT ${alias}.temporary AND NOT ${alias}.deleted`;
}

export const EMPLOYEE_SELECT = `
  SELECT u.id, u.name, u.username, u.phone, u.role, u.notes, u.blocked, u.deleted, u.is_muted, u.created_at,
         (u.password_hash IS NOT NULL AND u.extra_password_hash IS NOT NULL) AS password_set,
         (SELECT count(*) FROM users i WHERE i.invited_by = u.id AND ${joined('i')}) AS invited_users
    FROM users u`;

export function toEmployee(row: EmployeeRow): EmployeeView {
  return {
    id: row.id,
    name: row.name,
    username: row.username,
    phone: row.phone,
    role: row.role,
    notes: row.notes,
    blocked: row.blocked,
    deleted: row.deleted,
    isMuted: row.is_muted,
    created_at: new Date(row.created_at).toISOString(),
    password_set: row.password_set,
    invited_users: Number(row.invited_users),
  };
}
