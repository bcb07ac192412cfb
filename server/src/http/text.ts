// How long a text is, one rule for every limit (the client's packages/shared/src/rules/text.ts is the same):
// characters are Unicode code points, as JSON Schema's maxLength counts them, so an emoji is one character,
// not the two UTF-16 units `String.length` gives.

/** The number of characters (code points) in `text`. */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}
