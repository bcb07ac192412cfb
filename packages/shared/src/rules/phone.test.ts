import {
  COUNTRY_CALLING_CODES,
  countryOf,
  countryOptions,
  formatPhone,
  formatPhoneAsYouType,
  guessCountry,
  loadPhoneRules,
  loadPhoneValidation,
  sanitizePhoneInput,
  toE164,
} from './phone';

// A file of its own: its first test sees the rules before anything has loaded them.
describe('phone rules (spec §5)', () => {
  it('keeps digits, spaces, parentheses, hyphens and plus, at most 25', () => {
    expect(sanitizePhoneInput('+1 (201) 555-0123 ext')).toBe('+1 (201) 555-0123 ');
    expect(sanitizePhoneInput('1'.repeat(40))).toHaveLength(25);
  });

  it('formats internationally as one types and validates per country', async () => {
    // Formatting waits for its rules and validation for its metadata (loaded when a number is first typed or a
    // phone field appears): until then a number stays as typed, shown in its E.164 form, and nothing is valid.
    expect(formatPhoneAsYouType('+4915112345678', 'US')).toBe('+4915112345678');
    expect(countryOf('+4915112345678')).toBeUndefined();
    expect(toE164('2015550123', 'US')).toBeNull();
    await loadPhoneRules();
    expect(formatPhone('+4915112345678')).toBe('+49 1511 2345678');
    expect(countryOf('+4915112345678')).toBe('DE');
    expect(toE164('2015550123', 'US')).toBeNull();
    await loadPhoneValidation();
    expect(formatPhoneAsYouType('+4915112345678', 'US')).toBe('+49 1511 2345678');
    expect(formatPhoneAsYouType('2015550123', 'US')).toBe('(201) 555-0123');
    expect(toE164('2015550123', 'US')).toBe('+12015550123');
    expect(toE164('+49 1511 2345678', 'US')).toBe('+4915112345678');
    expect(toE164('12345', 'US')).toBeNull();
    expect(toE164('1', 'US')).toBeNull();
  });

  it('knows every country of the phone metadata with its calling code, without loading it', async () => {
    const { getCountries, getCountryCallingCode } = await import('libphonenumber-js/core');
    const { default: metadata } = await import('libphonenumber-js/min/metadata');
    const fromMetadata = getCountries(metadata).map((code) => [code, getCountryCallingCode(code, metadata)]);
    expect(COUNTRY_CALLING_CODES).toEqual(fromMetadata);
    expect(countryOptions('de').find((option) => option.code === 'DE')).toEqual({ code: 'DE', name: 'Deutschland', callingCode: '49' });
  });

  it('guesses the country from the browser languages', () => {
    expect(guessCountry(['de-DE', 'en'])).toBe('DE');
    expect(guessCountry(['fr'])).toBe('US');
  });
});

