// How long a text is, one rule for every limit (the client's packages/shared/src/rules/text.ts is the same):
// characters are Unicode code points, as JSON Schema's maxLength counts them, so an emoji is one character,
// not the two UTF-16 units `String.length` gives.

/** The number of characters (code points) in `text`. */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/**
 * Whether any string in `value` (a parsed body, query, params or socket frame, searched through) holds U+0000.
 * PostgreSQL's text cannot store it; refusing it up front gives a clear 400 instead of a 500 from the database.
 */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (value === null || typeof value !== 'object' || depth > 32) return false;
  if (Array.isArray(value)) return value.some((item) => containsNul(item, depth + 1));
  for (const [key, item] of Object.entries(value)) if (key.includes('\u0000') || containsNul(item, depth + 1)) return true;
  return false;
}

export const NUL_MESSAGE = 'Text cannot contain the NUL character (U+0000)';
