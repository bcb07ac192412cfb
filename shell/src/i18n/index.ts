import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, LANGUAGES, useSettingsStore, type Language } from '@messenger/shared';
import en from './locales/en.json';
import ru from './locales/ru.json';
import tr from './locales/tr.json';
import es from './locales/es.json';
import it from './locales/it.json';
import de from './locales/de.json';
import fr from './locales/fr.json';

const shell: Record<Language, typeof en> = { en, ru, tr, es, it, de, fr };
const resources = Object.fromEntries(Object.entries(shell).map(([language, strings]) => [language, { shell: strings }]));

/**
 * The shell owns the one i18next instance (shared as a singleton) and its `shell` namespace; `common` comes
 * with @messenger/shared, and each remote adds its own namespace when it loads. The language is the one stored in this browser, English by default
 * and as the fallback for anything missing.
 */
export function initI18n(): typeof i18next {
  const { language } = useSettingsStore.getState();
  void i18next.use(initReactI18next).init({
    resources,
    lng: language,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    ns: ['shell', 'common'],
    defaultNS: 'shell',
    interpolation: { escapeValue: false }, // React escapes
    initAsync: false,
  });
  document.documentElement.lang = language;
  useSettingsStore.subscribe((settings) => {
    if (settings.language !== i18next.language) void i18next.changeLanguage(settings.language);
    document.documentElement.lang = settings.language;
  });
  return i18next;
}
