import { useMemo } from 'react';
import { config } from '../config';
import { countryOf, countryOptions, formatPhoneAsYouType, type CountryCode } from '../rules/phone';
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
