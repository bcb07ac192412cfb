import type { TestServer } from './server.js';
import { hashPassword } from '../../src/security/passwords.js';
import { type Person, randomPhone, request, signUp } from './client.js';

/** Passwords the test helpers give staff who set their own (8–128 characters, two different ones). */
export const STAFF_PASSWORDS = { password: 'correct horse 1', extra_password: 'battery staple 2' } as const;

/**
 * Makes a signed-up person staff: the role as the database has it, then their two passwords set through the API
 * (`POST /user/password`), so staff routes stop answering `password_setup_required`.
 */
export async function makeStaff(server: TestServer, person: Person, role: number, passwords: { password: string; extra_password: string } = STAFF_PASSWORDS): Promise<void> {
  await server.db.query('UPDATE users SET role = $2 WHERE id = $1', [person.id, role]);
  const set = await request(server, 'POST', '/user/password', { token: person.token, body: passwords });
  if (set.status !== 200) throw new Error(`user/password ${set.status} ${JSON.stringify(set.body)}`);
}

/** Signs staff in with their passwords (both steps); returns the tokens. */
export async function signInStaff(
  server: TestServer,
  phone: string,
  passwords: { password: string; extra_password: string } = STAFF_PASSWORDS,
): Promise<{ access_token: string; refresh_token: string }> {
  const first = await request(server, 'POST', '/auth/sign-in-manager', { body: { phone, password: passwords.password } });
  if (first.status !== 200) throw new Error(`sign-in-manager ${first.status} ${JSON.stringify(first.body)}`);
  const second = await request(server, 'POST', '/auth/sign-in-manager-extra', {
    body: { phone, password: passwords.extra_password, ticket: first.body.ticket },
  });
  if (second.status !== 200) throw new Error(`sign-in-manager-extra ${second.status} ${JSON.stringify(second.body)}`);
  return second.body.jwt_info;
}

export interface StaffPerson extends Person {
  password: string;
  extra_password: string;
}

/** A manager made by an admin through the API (generated passwords), signed in with them. */
export async function createManager(server: TestServer, admin: Person, name = 'Manny', phone = randomPhone()): Promise<StaffPerson> {
  const created = await request(server, 'POST', '/user/manager', { token: admin.token, body: { phone, name } });
  if (created.status !== 201) throw new Error(`user/manager ${created.status} ${JSON.stringify(created.body)}`);
  const { password, extra_password } = created.body.credentials;
  const jwt = await signInStaff(server, phone, { password, extra_password });
  return { id: created.body.user.id, phone, token: jwt.access_token, refresh: jwt.refresh_token, password, extra_password };
}

/** STAFF_PASSWORDS hashed once per test process for each work factor a test server uses. */
const quickHashes = new Map<number, Promise<[string, string]>>();

/**
 * Staff for tests about something else, made quickly: signed up by SMS, then role and passwords
 * (STAFF_PASSWORDS, hashed once per test process) written to the database — scrypt is slow on purpose, and the
 * way an admin makes a manager through the API has tests of its own.
 */
export async function quickStaff(server: TestServer, role: number, name = 'Staff'): Promise<StaffPerson> {
  const cost = server.config.passwordHashCost;
  if (!quickHashes.has(cost)) quickHashes.set(cost, Promise.all([hashPassword(STAFF_PASSWORDS.password, cost), hashPassword(STAFF_PASSWORDS.extra_password, cost)]));
  const [passwordHash, extraHash] = await quickHashes.get(cost)!;
  const person = await signUp(server, { name });
  await server.db.query('UPDATE users SET role = $2, password_hash = $3, extra_password_hash = $4 WHERE id = $1', [person.id, role, passwordHash, extraHash]);
  return { ...person, ...STAFF_PASSWORDS };
}

/**
 * A role change ends the person's sessions (issue 9): staff whose role a test changed through the API sign in
 * again with their passwords, and go on with the new tokens.
 */
export async function signInAgain<P extends Person & { password: string; extra_password: string }>(server: TestServer, person: P): Promise<P> {
  const jwt = await signInStaff(server, person.phone, { password: person.password, extra_password: person.extra_password });
  person.token = jwt.access_token;
  person.refresh = jwt.refresh_token;
  return person;
}
