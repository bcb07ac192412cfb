// One rule for how long a text is, the server's too: characters are Unicode code points, so an emoji counts as
// one, not as the two UTF-16 units `String.length` and the HTML `maxlength` attribute count.

/** The number of characters (code points) in `text`. */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/** `text` cut to at most `max` characters, never in the middle of one (a surrogate pair stays whole). */
export function clampCharacters(text: string, max: number): string {
  if (text.length <= max) return text; // at most `max` UTF-16 units is at most `max` code points
  let end = 0;
  let count = 0;
  for (const character of text) {
    if (count === max) break;
    end += character.length;
    count += 1;
  }
  return text.slice(0, end);
}
