/** A username: a letter, then letters, digits or underscores; 3–60 characters in all (server rule too). */
const USERNAME = /^[A-Za-z][A-Za-z0-9_]{2,59}$/;

/** The username as stored: trimmed, without a leading @ (spec §5). */
export function cleanUsername(input: string): string {
  return input.trim().replace(/^@/, '');
}

/** Whether a cleaned username is acceptable; empty means "none" and is acceptable too. */
export function isValidUsername(cleaned: string): boolean {
  return cleaned === '' || USERNAME.test(cleaned);
}
