import { config } from '../config';
import type { Contact } from '../model/types';
import { clampCharacters } from './text';

/** Spec §5: lowercased, '@', '+' and whitespace removed, at most 120 characters. */
export function normalizeSearch(input: string): string {
  return clampCharacters(input.trim(), config.searchMax).toLowerCase().replace(/[@+\s]/g, '');
}

/** Whether a normalised query matches any of the texts (substring, after the same normalisation). */
export function matchesSearch(query: string, ...texts: Array<string | null | undefined>): boolean {
  if (!query) return true;
  return texts.some((text) => text && normalizeSearch(text).includes(query));
}

/** Spec §5: substring of alias_name, phone, name or username, excluding deleted contacts. */
export function filterContacts(contacts: Contact[], query: string): Contact[] {
  return contacts.filter(
    (contact) => !contact.deleted && !contact.is_deleted_contact && matchesSearch(query, contact.alias_name, contact.phone, contact.name, contact.username),
  );
}
