import { formatPhone } from './phone';

/** Anything that can be named: a contact, a user, a chat. */
export interface Nameable {
  alias_name?: string | null;
  name?: string | null;
  username?: string | null;
  /** Present only where the viewer may see it (their contact, themselves; docs/api.md `PublicUser.phone`). */
  phone?: string | null;
  chat_name?: string | null;
}

/**
 * The one way a person (or chat) is named anywhere in the app — chat list, header, members, toasts, calls.
 * Spec §3's chain — alias_name, else name, else username, else chat_name, else '?' — with the phone, when the
 * viewer may see it, before the chat's name: someone without a name or username is shown by the phone the
 * viewer knows rather than as '?'. Each field is looked for in every source (first the contact, then the
 * profile…) before the next field.
 */
export function displayName(...sources: Array<Nameable | null | undefined>): string {
  for (const field of ['alias_name', 'name', 'username', 'phone', 'chat_name'] as const) {
    for (const source of sources) {
      const value = source?.[field]?.trim();
      if (value) return field === 'phone' ? formatPhone(value) : value;
    }
  }
  return '?';
}
