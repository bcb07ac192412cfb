// How long a text is, one rule for every limit (the client's packages/shared/src/rules/text.ts is the same):
// characters are Unicode code points, as JSON Schema's maxLength counts them, so an emoji is one character,
// not the two UTF-16 units `String.length` gives.

/** The number of characters (code points) in `text`. */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/** A UTF-16 surrogate without its pair: JSON can carry one, PostgreSQL's jsonb and text cannot store it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const NUL_MESSAGE = 'Text cannot contain the NUL character (U+0000)';
export const LONE_SURROGATE_MESSAGE = 'Text must be valid Unicode (it holds half of a surrogate pair)';

/**
 * What no string of a request (a parsed body, query, params or socket frame, searched through) may hold, because
 * PostgreSQL cannot store it: U+0000, or half of a UTF-16 surrogate pair. Refusing it up front gives a clear 400
 * instead of a 500 from the database (and, in the batch writer, a failed batch). Null when all is well.
 */
export function unstorableText(value: unknown, depth = 0): { code: 'nul_character' | 'invalid_unicode'; message: string } | null {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) return { code: 'nul_character', message: NUL_MESSAGE };
    if (LONE_SURROGATE.test(value)) return { code: 'invalid_unicode', message: LONE_SURROGATE_MESSAGE };
    return null;
  }
  if (value === null || typeof value !== 'object' || depth > 32) return null;
  if (Array.isArray(value)) {
    for (const item of value) {
      const problem = unstorableText(item, depth + 1);
      if (problem) return problem;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const problem = unstorableText(key, depth + 1) ?? unstorableText(item, depth + 1);
    if (problem) return problem;
  }
  return null;
}
