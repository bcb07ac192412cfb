import { useTranslation } from 'react-i18next';
import { LanguageSelect, useSettingsStore } from '@messenger/shared';

/** Language, theme and background pattern: this browser's settings (spec §1). */
export function AppearanceSettings() {
  const { t } = useTranslation('messenger');
  const { theme, backgroundPattern, setTheme, setBackgroundPattern } = useSettingsStore();
  return (
    <div className="msg-settings">
      <LanguageSelect label={t('profile.language')} />
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
