/** Anything that can be named: a contact, a user, a chat. */
export interface Nameable {
  alias_name?: string | null;
  name?: string | null;
  username?: string | null;
  chat_name?: string | null;
}

/** Spec §3: alias_name, else name, else username, else chat_name, else '?'. */
export function displayName(...sources: Array<Nameable | null | undefined>): string {
  for (const field of ['alias_name', 'name', 'username', 'chat_name'] as const) {
    for (const source of sources) {
      const value = source?.[field]?.trim();
      if (value) return value;
    }
  }
  return '?';
}
