import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { badRequest } from '../../http/errors.js';

/** The longest phone input the client allows (spec §9); anything longer is refused before parsing. */
export const PHONE_MAX_LENGTH = 25;

/** E.164 form of a valid international number (`+` and country code required), or null. */
export function toE164(input: string): string | null {
  const trimmed = input.trim();
  if (!trimmed.startsWith('+') || trimmed.length > PHONE_MAX_LENGTH) return null;
  const parsed = parsePhoneNumberFromString(trimmed);
  return parsed?.isValid() ? parsed.number : null;
}

/** The E.164 form of a phone from a request, or 400 `invalid_phone`. */
export function requirePhone(raw: string): string {
  const phone = toE164(raw);
  if (!phone) throw badRequest('Invalid phone number', 'invalid_phone');
  return phone;
}
