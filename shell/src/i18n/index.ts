import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGES, addTranslations, translationNamespaces, translationsBackend, useSettingsStore } from '@messenger/shared';

// The shell's own strings, like every app's: only the language in use is downloaded.
addTranslations('shell', (language) => import(`./locales/${language}.json`));

/**
 * The shell owns the one i18next instance (shared as a singleton) and its `shell` namespace; `common` comes
 * with @messenger/shared, and each remote adds its own namespace when it loads. The language is the one stored
 * in this browser, English by default. Resolves once the strings of the first screen are there. Every language
 * has every key (each app's locales test), so there is no fallback language to download as well.
 */
export async function initI18n(): Promise<typeof i18next> {
  const { language } = useSettingsStore.getState();
  await i18next
    .use(initReactI18next)
    .use(translationsBackend)
    .init({
      lng: language,
      fallbackLng: false,
      supportedLngs: [...LANGUAGES],
      ns: translationNamespaces(),
      defaultNS: 'shell',
      interpolation: { escapeValue: false }, // React escapes
      // A remote is shown once its strings are there (RemoteSlot waits for them): nothing needs to suspend.
      react: { useSuspense: false },
    });
  document.documentElement.lang = language;
  useSettingsStore.subscribe((settings) => {
    if (settings.language !== i18next.language) void i18next.changeLanguage(settings.language);
    document.documentElement.lang = settings.language;
  });
  return i18next;
}
