import { AsYouType, getCountries, getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { config } from '../config';

export type { CountryCode };

/** Characters a phone field accepts as typed (spec §5): digits, spaces, parentheses, hyphens and plus. */
const ALLOWED = /[^\d\s()+-]/g;

/** Keeps only allowed characters, at most 25 of them. */
export function sanitizePhoneInput(input: string): string {
  return input.replace(ALLOWED, '').slice(0, config.phoneMaxLength);
}

/** International formatting as the person types, for the chosen country (or the one a leading + names). */
export function formatPhoneAsYouType(input: string, country: CountryCode): string {
  const clean = sanitizePhoneInput(input);
  if (!clean) return '';
  return new AsYouType(clean.startsWith('+') ? undefined : country).input(clean);
}

/** The E.164 form when the number is valid for its country, else null. */
export function toE164(input: string, country: CountryCode): string | null {
  const clean = sanitizePhoneInput(input);
  if (clean.replace(/\D/g, '').length < 2) return null;
  const parsed = parsePhoneNumberFromString(clean, clean.startsWith('+') ? undefined : { defaultCountry: country });
  return parsed?.isValid() ? parsed.number : null;
}

/** The country a typed international number belongs to, if it can tell. */
export function countryOf(input: string): CountryCode | undefined {
  const clean = sanitizePhoneInput(input);
  if (!clean.startsWith('+')) return undefined;
  const typer = new AsYouType();
  typer.input(clean);
  return typer.getCountry();
}

/** Every country with its calling code, named in the given language and sorted by that name. */
export function countryOptions(language: string): Array<{ code: CountryCode; name: string; callingCode: string }> {
  const names = new Intl.DisplayNames([language, 'en'], { type: 'region' });
  return getCountries()
    .map((code) => ({ code, name: names.of(code) ?? code, callingCode: getCountryCallingCode(code) }))
    .sort((a, b) => a.name.localeCompare(b.name, language));
}

/** A first guess at the person's country: the region of the browser's language (no IP lookup leaves the device). */
export function guessCountry(languages: readonly string[] = typeof navigator === 'undefined' ? [] : navigator.languages): CountryCode {
  const countries = new Set<string>(getCountries());
  for (const tag of languages) {
    const region = tag.split('-')[1]?.toUpperCase();
    if (region && countries.has(region)) return region as CountryCode;
  }
  return 'US';
}

/** Pretty international form of an E.164 number for display. */
export function formatPhone(e164: string | null | undefined): string {
  if (!e164) return '';
  return parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;
}
