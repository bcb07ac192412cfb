import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import {
  LANGUAGES,
  addTranslations,
  loadTranslations,
  translationNamespaces,
  translationsBackend,
  useNotificationsStore,
  useSettingsStore,
  type Language,
} from '@messenger/shared';

// The shell's own strings, like every app's: only the language in use is downloaded.
addTranslations('shell', (language) => import(/* webpackChunkName: "strings-[request]" */ `./locales/${language}.json`));

/**
 * The shell owns the one i18next instance (shared as a singleton) and its `shell` namespace; `common` comes
 * with @messenger/shared, and each remote adds its own namespace when it loads. The language is the one stored
 * in this browser, English by default. Resolves once the strings of the first screen are there (or could not be
 * fetched even when tried again). Every language has every key (each app's locales test), so there is no
 * fallback language to download as well.
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
      // A lost download is tried twice more (0.35 s, then 0.7 s later), and once again as a whole before the
      // person is told (loadTranslations): about 2 s, not i18next's 11 s twice.
      maxRetries: 2,
    });
  await loadTranslations(language);
  document.documentElement.lang = language;
  let shown = language;
  const follow = (wanted: Language) => {
    if (wanted === shown) return;
    void switchLanguage(wanted).then((switched) => {
      if (switched) {
        shown = wanted;
        document.documentElement.lang = wanted;
        return;
      }
      // Without its words the screen would show bare keys: it stays in the language it has, and says so.
      useSettingsStore.getState().setLanguage(shown);
      useNotificationsStore.getState().push({ kind: 'error', text: i18next.t('shell:languageUnavailable') });
    });
  };
  useSettingsStore.subscribe((settings) => follow(settings.language));
  // A choice made while the first strings were loading is not missed.
  follow(useSettingsStore.getState().language);
  return i18next;
}

/** Switches once every namespace has its strings in `language` (fetched now); false when some could not be. */
async function switchLanguage(language: Language): Promise<boolean> {
  const missing = await loadTranslations(language);
  if (missing.length > 0) return false;
  await i18next.changeLanguage(language);
  return true;
}
