// The phone rules' code and their formatting metadata (libphonenumber-js core and its smallest metadata, about
// 30 KB compressed): a chunk of its own, loaded by `rules/phone.ts` when a phone number is first typed or shown,
// never part of a page's first load.
import { AsYouType, parsePhoneNumberFromString, type CountryCode, type MetadataJson } from 'libphonenumber-js/core';
import formatting from 'libphonenumber-js/min/metadata';

/** International formatting as typed, for the chosen country (or the one a leading + names). */
export function formatAsYouType(clean: string, country: CountryCode): string {
  return new AsYouType(clean.startsWith('+') ? undefined : country, formatting).input(clean);
}

/** The country a typed international number belongs to, if it can tell. */
export function countryOfNumber(clean: string): CountryCode | undefined {
  const typer = new AsYouType(undefined, formatting);
  typer.input(clean);
  return typer.getCountry();
}

/** The E.164 form when the number is valid for its country under the given (validation) metadata, else null. */
export function validNumber(clean: string, country: CountryCode, validation: MetadataJson): string | null {
  const parsed = parsePhoneNumberFromString(clean, clean.startsWith('+') ? {} : { defaultCountry: country }, validation);
  return parsed?.isValid() ? parsed.number : null;
}

/** Pretty international form of an E.164 number, or null when it cannot be read. */
export function internationalForm(e164: string): string | null {
  return parsePhoneNumberFromString(e164, {}, formatting)?.formatInternational() ?? null;
}
