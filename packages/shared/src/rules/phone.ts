import { useEffect, useSyncExternalStore } from 'react';
import {
  AsYouType,
  getCountries,
  getCountryCallingCode,
  parsePhoneNumberFromString,
  type CountryCode,
  type MetadataJson,
} from 'libphonenumber-js/core';
import formatting from 'libphonenumber-js/min/metadata';
import { config } from '../config';

export type { CountryCode };

// Two sets of phone metadata (spec §5). Formatting, the country list and reading the country from a number use
// the small one (16 KB compressed), part of the first load. Validating a number for its country needs every
// number pattern (34 KB compressed): it loads when a phone field first appears, and until then nothing is valid.
let validation: MetadataJson | null = null;
const PHONE_RULES_RETRY_MS = 3_000;
let validationLoading: Promise<void> | null = null;
const validationListeners = new Set<() => void>();

/** Loads the validation metadata once; resolves when toE164 can tell valid numbers. */
export function loadPhoneValidation(): Promise<void> {
  validationLoading ??= import(/* webpackChunkName: "phone-validation" */ 'libphonenumber-js/max/metadata').then(
    (module) => {
      validation = module.default;
      for (const listener of validationListeners) listener();
    },
    (error: unknown) => {
      validationLoading = null; // a failed download (offline) is tried again by the next field
      throw error;
    },
  );
  return validationLoading;
}

const subscribeToValidation = (listener: () => void) => {
  validationListeners.add(listener);
  return () => validationListeners.delete(listener);
};

/**
 * For a component that validates phone numbers: loads the validation metadata once `needed` (at once by
 * default; the sign-in page waits for the first digit, keeping it off its first load) and renders again when it
 * is there. Returns whether it is: until then toE164 answers null and no number should be called invalid.
 */
export function usePhoneValidation(needed = true): boolean {
  const ready = useSyncExternalStore(subscribeToValidation, () => validation !== null);
  useEffect(() => {
    if (!needed || ready) return;
    // A failed download (offline, a blip) is tried again every few seconds while the field is there.
    let retry: ReturnType<typeof setTimeout> | undefined;
    let active = true;
    const attempt = () => {
      loadPhoneValidation().catch(() => {
        if (active) retry = setTimeout(attempt, PHONE_RULES_RETRY_MS);
      });
    };
    attempt();
    return () => {
      active = false;
      clearTimeout(retry);
    };
  }, [needed, ready]);
  return ready;
}

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
  return new AsYouType(clean.startsWith('+') ? undefined : country, formatting).input(clean);
}

/** The E.164 form when the number is valid for its country, else null (also while the rules are loading). */
export function toE164(input: string, country: CountryCode): string | null {
  const clean = sanitizePhoneInput(input);
  if (!validation || clean.replace(/\D/g, '').length < 2) return null;
  const parsed = parsePhoneNumberFromString(clean, clean.startsWith('+') ? {} : { defaultCountry: country }, validation);
  return parsed?.isValid() ? parsed.number : null;
}

/** The country a typed international number belongs to, if it can tell. */
export function countryOf(input: string): CountryCode | undefined {
  const clean = sanitizePhoneInput(input);
  if (!clean.startsWith('+')) return undefined;
  const typer = new AsYouType(undefined, formatting);
  typer.input(clean);
  return typer.getCountry();
}

/** Every country with its calling code, named in the given language and sorted by that name. */
export function countryOptions(language: string): Array<{ code: CountryCode; name: string; callingCode: string }> {
  const names = new Intl.DisplayNames([language, 'en'], { type: 'region' });
  return getCountries(formatting)
    .map((code) => ({ code, name: names.of(code) ?? code, callingCode: getCountryCallingCode(code, formatting) }))
    .sort((a, b) => a.name.localeCompare(b.name, language));
}

/** A first guess at the person's country: the region of the browser's language (no IP lookup leaves the device). */
export function guessCountry(languages: readonly string[] = typeof navigator === 'undefined' ? [] : navigator.languages): CountryCode {
  const countries = new Set<string>(getCountries(formatting));
  for (const tag of languages) {
    const region = tag.split('-')[1]?.toUpperCase();
    if (region && countries.has(region)) return region as CountryCode;
  }
  return 'US';
}

/** Pretty international form of an E.164 number for display. */
export function formatPhone(e164: string | null | undefined): string {
  if (!e164) return '';
  return parsePhoneNumberFromString(e164, {}, formatting)?.formatInternational() ?? e164;
}
