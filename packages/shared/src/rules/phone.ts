import { useEffect, useSyncExternalStore } from 'react';
import type { CountryCode, MetadataJson } from 'libphonenumber-js/core';
import type * as PhoneEngineModule from './phone-engine';
import { config } from '../config';

export type { CountryCode };

// The phone rules (spec §5) come in three parts, so that no page's first load carries them:
// - the countries and their calling codes (below, 1 KB), for the country selector and the first guess;
// - formatting: libphonenumber-js's code and its smallest metadata (about 30 KB compressed, `phone-engine.ts`),
//   loaded when a number is first typed or shown; until then a number is shown as typed, or in its E.164 form;
// - validation: every number pattern (34 KB compressed), loaded with the first digit typed in a sign-in field or
//   when another phone field appears; until then nothing is valid.
type PhoneEngine = typeof PhoneEngineModule;
let engine: PhoneEngine | null = null;
let validation: MetadataJson | null = null;
const PHONE_RULES_RETRY_MS = 3_000;
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Calls `listener` once, when the formatting rules arrive (at once if they are here). */
export function whenPhoneRulesLoad(listener: () => void): void {
  if (engine) {
    listener();
    return;
  }
  const unsubscribe = subscribe(() => {
    if (!engine) return;
    unsubscribe();
    listener();
  });
}

/** A download made once; a failed one (offline, a blip) is made again by the next caller. */
function once<T>(load: () => Promise<T>, keep: (value: T) => void): () => Promise<void> {
  let loading: Promise<void> | null = null;
  return () => {
    loading ??= load().then(
      (value) => {
        keep(value);
        for (const listener of listeners) listener();
      },
      (error: unknown) => {
        loading = null;
        throw error;
      },
    );
    return loading;
  };
}

/** Loads the formatting rules once; resolves when numbers are formatted as typed and shown internationally. */
export const loadPhoneRules = once(
  () => import(/* webpackChunkName: "phone-rules" */ './phone-engine'),
  (module) => {
    engine = module;
  },
);

const loadValidationMetadata = once(
  () => import(/* webpackChunkName: "phone-validation" */ 'libphonenumber-js/max/metadata'),
  (module) => {
    validation = module.default;
  },
);

/** Loads the validation metadata (and the rules' code) once; resolves when toE164 can tell valid numbers. */
export async function loadPhoneValidation(): Promise<void> {
  await Promise.all([loadPhoneRules(), loadValidationMetadata()]);
}

/** Loads with `load` once `needed`, retrying a failed download every few seconds while the component is there. */
function useLoaded(ready: boolean, needed: boolean, load: () => Promise<void>): void {
  useEffect(() => {
    if (!needed || ready) return;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let active = true;
    const attempt = () => {
      load().catch(() => {
        if (active) retry = setTimeout(attempt, PHONE_RULES_RETRY_MS);
      });
    };
    attempt();
    return () => {
      active = false;
      clearTimeout(retry);
    };
  }, [needed, ready, load]);
}

/**
 * For a component that validates phone numbers: loads the validation metadata once `needed` (at once by
 * default; the sign-in page waits for the first digit, keeping it off its first load) and renders again when it
 * is there. Returns whether it is: until then toE164 answers null and no number should be called invalid.
 */
export function usePhoneValidation(needed = true): boolean {
  const ready = useSyncExternalStore(subscribe, () => validation !== null && engine !== null);
  useLoaded(ready, needed, loadPhoneValidation);
  return ready;
}

/** For a component that formats numbers: loads the formatting rules once `needed` and renders again when they are there. */
export function usePhoneRules(needed = true): boolean {
  const ready = useSyncExternalStore(subscribe, () => engine !== null);
  useLoaded(ready, needed, loadPhoneRules);
  return ready;
}

/**
 * `formatPhone` for a component that shows numbers: the E.164 form at first, the international form once the
 * rules are there (the component renders again then).
 */
export function usePhoneFormatter(): typeof formatPhone {
  usePhoneRules();
  return formatPhone;
}

/**
 * Every country the rules know, with its calling code. Kept here rather than read from the metadata so that the
 * country selector needs none of it; a unit test checks it against libphonenumber-js's metadata.
 */
const CALLING_CODES =
  'AC247 AD376 AE971 AF93 AG1 AI1 AL355 AM374 AO244 AR54 AS1 AT43 AU61 AW297 AX358 AZ994 BA387 BB1 BD880 BE32 BF226 ' +
  'BG359 BH973 BI257 BJ229 BL590 BM1 BN673 BO591 BQ599 BR55 BS1 BT975 BW267 BY375 BZ501 CA1 CC61 CD243 CF236 CG242 ' +
  'CH41 CI225 CK682 CL56 CM237 CN86 CO57 CR506 CU53 CV238 CW599 CX61 CY357 CZ420 DE49 DJ253 DK45 DM1 DO1 DZ213 EC593 ' +
  'EE372 EG20 EH212 ER291 ES34 ET251 FI358 FJ679 FK500 FM691 FO298 FR33 GA241 GB44 GD1 GE995 GF594 GG44 GH233 GI350 ' +
  'GL299 GM220 GN224 GP590 GQ240 GR30 GT502 GU1 GW245 GY592 HK852 HN504 HR385 HT509 HU36 ID62 IE353 IL972 IM44 IN91 ' +
  'IO246 IQ964 IR98 IS354 IT39 JE44 JM1 JO962 JP81 KE254 KG996 KH855 KI686 KM269 KN1 KP850 KR82 KW965 KY1 KZ7 LA856 ' +
  'LB961 LC1 LI423 LK94 LR231 LS266 LT370 LU352 LV371 LY218 MA212 MC377 MD373 ME382 MF590 MG261 MH692 MK389 ML223 ' +
  'MM95 MN976 MO853 MP1 MQ596 MR222 MS1 MT356 MU230 MV960 MW265 MX52 MY60 MZ258 NA264 NC687 NE227 NF672 NG234 NI505 ' +
  'NL31 NO47 NP977 NR674 NU683 NZ64 OM968 PA507 PE51 PF689 PG675 PH63 PK92 PL48 PM508 PR1 PS970 PT351 PW680 PY595 ' +
  'QA974 RE262 RO40 RS381 RU7 RW250 SA966 SB677 SC248 SD249 SE46 SG65 SH290 SI386 SJ47 SK421 SL232 SM378 SN221 SO252 ' +
  'SR597 SS211 ST239 SV503 SX1 SY963 SZ268 TA290 TC1 TD235 TG228 TH66 TJ992 TK690 TL670 TM993 TN216 TO676 TR90 TT1 ' +
  'TV688 TW886 TZ255 UA380 UG256 US1 UY598 UZ998 VA39 VC1 VE58 VG1 VI1 VN84 VU678 WF681 WS685 XK383 YE967 YT262 ZA27 ' +
  'ZM260 ZW263';

/** Each country code with its calling code, in the order of the list above. */
export const COUNTRY_CALLING_CODES: ReadonlyArray<readonly [CountryCode, string]> = CALLING_CODES.split(' ').map(
  (entry) => [entry.slice(0, 2) as CountryCode, entry.slice(2)] as const,
);

/** Characters a phone field accepts as typed (spec §5): digits, spaces, parentheses, hyphens and plus. */
const ALLOWED = /[^\d\s()+-]/g;

/** Keeps only allowed characters, at most 25 of them. */
export function sanitizePhoneInput(input: string): string {
  return input.replace(ALLOWED, '').slice(0, config.phoneMaxLength);
}

/** International formatting as the person types, for the chosen country; as typed until the rules are loaded. */
export function formatPhoneAsYouType(input: string, country: CountryCode): string {
  const clean = sanitizePhoneInput(input);
  if (!clean) return '';
  return engine ? engine.formatAsYouType(clean, country) : clean;
}

/** The E.164 form when the number is valid for its country, else null (also while the rules are loading). */
export function toE164(input: string, country: CountryCode): string | null {
  const clean = sanitizePhoneInput(input);
  if (!engine || !validation || clean.replace(/\D/g, '').length < 2) return null;
  return engine.validNumber(clean, country, validation);
}

/** The country a typed international number belongs to, if it can tell (not before the rules are loaded). */
export function countryOf(input: string): CountryCode | undefined {
  const clean = sanitizePhoneInput(input);
  if (!clean.startsWith('+') || !engine) return undefined;
  return engine.countryOfNumber(clean);
}

/** Every country with its calling code, named in the given language and sorted by that name. */
export function countryOptions(language: string): Array<{ code: CountryCode; name: string; callingCode: string }> {
  const names = new Intl.DisplayNames([language, 'en'], { type: 'region' });
  return COUNTRY_CALLING_CODES.map(([code, callingCode]) => ({ code, name: names.of(code) ?? code, callingCode })).sort((a, b) =>
    a.name.localeCompare(b.name, language),
  );
}

/** A first guess at the person's country: the region of the browser's language (no IP lookup leaves the device). */
export function guessCountry(languages: readonly string[] = typeof navigator === 'undefined' ? [] : navigator.languages): CountryCode {
  const countries = new Set<string>(COUNTRY_CALLING_CODES.map(([code]) => code));
  for (const tag of languages) {
    const region = tag.split('-')[1]?.toUpperCase();
    if (region && countries.has(region)) return region as CountryCode;
  }
  return 'US';
}

/**
 * Pretty international form of an E.164 number for display; the E.164 form itself until the rules are loaded.
 * A component that shows numbers does so through `usePhoneFormatter`, which renders it again when they come; a
 * name that falls back to the phone (`displayName`) asks for them, and the stores it is read from are refreshed
 * when they come (`stores/phone-names.ts`).
 */
export function formatPhone(e164: string | null | undefined): string {
  if (!e164) return '';
  if (!engine) {
    loadPhoneRules().catch(() => undefined); // offline: the next number shown asks again
    return e164;
  }
  return engine.internationalForm(e164) ?? e164;
}
