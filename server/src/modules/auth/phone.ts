import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** The longest phone input the client allows (spec §9); anything longer is refused before parsing. */
export const PHONE_MAX_LENGTH = 25;

/** E.164 form of a valid international number (`+` and country code required), or null. */
export function toE164(input: string): string | null {
  const trimmed = input.trim();
  if (!trimmed.startsWith('+') || trimmed.length > PHONE_MAX_LENGTH) return null;
  const parsed = parsePhoneNumberFromString(trimmed);
  return parsed?.isValid() ? parsed.number : null;
}
