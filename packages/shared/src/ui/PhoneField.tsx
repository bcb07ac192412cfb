import { useEffect, useMemo } from 'react';
import { config } from '../config';
import { countryOf, countryOptions, formatPhoneAsYouType, usePhoneRules, type CountryCode } from '../rules/phone';
import { useSettingsStore } from '../stores/settings';
import './ui.css';

interface PhoneFieldProps {
  country: CountryCode;
  value: string;
  onChange: (value: string, country: CountryCode) => void;
  countryLabel: string;
  phoneLabel: string;
  invalid?: boolean;
  describedBy?: string;
  autoFocus?: boolean;
}

/**
 * Country selector and phone input (spec §5): allowed characters only, at most 25, formatted internationally as
 * typed; a number typed with + and a country code switches the selector to that country.
 */
export function PhoneField({ country, value, onChange, countryLabel, phoneLabel, invalid, describedBy, autoFocus }: PhoneFieldProps) {
  const language = useSettingsStore((state) => state.language);
  const countries = useMemo(() => countryOptions(language), [language]);
  // The formatting rules load with the first character typed (or at once for a field that opens filled); what was
  // typed before they came is formatted when they do.
  const rulesReady = usePhoneRules(value !== '');
  useEffect(() => {
    if (!rulesReady || !value) return;
    const formatted = formatPhoneAsYouType(value, country);
    if (formatted !== value) onChange(formatted, countryOf(formatted) ?? country);
    // Only when the rules arrive: later input is formatted as it is typed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [rulesReady]);
  return (
    <>
      <label className="ui-field">
        <span>{countryLabel}</span>
        <select value={country} onChange={(event) => onChange(value, event.target.value as CountryCode)}>
          {countries.map((option) => (
            <option key={option.code} value={option.code}>
              {option.name} (+{option.callingCode})
            </option>
          ))}
        </select>
      </label>
      <label className="ui-field">
        <span>{phoneLabel}</span>
        <input
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          maxLength={config.phoneMaxLength}
          value={value}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          autoFocus={autoFocus}
          onChange={(event) => {
            const formatted = formatPhoneAsYouType(event.target.value, country);
            onChange(formatted, countryOf(formatted) ?? country);
          }}
        />
      </label>
    </>
  );
}
