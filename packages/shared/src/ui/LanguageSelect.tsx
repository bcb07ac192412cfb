import { LANGUAGES, type Language } from '../config';
import { useSettingsStore } from '../stores/settings';

/** Each language named in itself, so anyone can find their own whatever is showing now. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  ru: 'Русский',
  tr: 'Türkçe',
  es: 'Español',
  it: 'Italiano',
  de: 'Deutsch',
  fr: 'Français',
};

/**
 * The interface language (spec §1), kept in this browser's settings: offered on the profile and, for someone
 * who reads no English, already on the sign-in page.
 */
export function LanguageSelect({ label, className = 'ui-field' }: { label: string; className?: string }) {
  const language = useSettingsStore((state) => state.language);
  const setLanguage = useSettingsStore((state) => state.setLanguage);
  return (
    <label className={className}>
      <span>{label}</span>
      <select value={language} onChange={(event) => setLanguage(event.target.value as Language)}>
        {LANGUAGES.map((code) => (
          <option key={code} value={code} lang={code}>
            {code.toUpperCase()} — {LANGUAGE_NAMES[code]}
          </option>
        ))}
      </select>
    </label>
  );
}
