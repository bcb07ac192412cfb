import { useTranslation } from 'react-i18next';
import { LANGUAGES, useSettingsStore, type Language } from '@messenger/shared';

/** Each language named in itself, so anyone can find their own whatever is showing now. */
const NATIVE_NAMES: Record<Language, string> = {
  en: 'English',
  ru: 'Русский',
  tr: 'Türkçe',
  es: 'Español',
  it: 'Italiano',
  de: 'Deutsch',
  fr: 'Français',
};

/** Language, theme and background pattern: this browser's settings (spec §1). */
export function AppearanceSettings() {
  const { t } = useTranslation('messenger');
  const { language, theme, backgroundPattern, setLanguage, setTheme, setBackgroundPattern } = useSettingsStore();
  return (
    <div className="msg-settings">
      <label className="ui-field">
        <span>{t('profile.language')}</span>
        <select value={language} onChange={(event) => setLanguage(event.target.value as Language)}>
          {LANGUAGES.map((code) => (
            <option key={code} value={code} lang={code}>
              {code.toUpperCase()} — {NATIVE_NAMES[code]}
            </option>
          ))}
        </select>
      </label>
      <label className="msg-switch">
        <span>{t('profile.theme')}</span>
        <input type="checkbox" role="switch" checked={theme === 'dark'} onChange={(event) => setTheme(event.target.checked ? 'dark' : 'light')} />
      </label>
      <label className="msg-switch">
        <span>{t('profile.pattern')}</span>
        <input type="checkbox" role="switch" checked={backgroundPattern} onChange={(event) => setBackgroundPattern(event.target.checked)} />
      </label>
    </div>
  );
}
