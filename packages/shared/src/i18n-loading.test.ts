import { initReactI18next } from 'react-i18next';
import { addTranslations, i18n, loadTranslations, translationNamespaces, translationsBackend, translationsReady } from './i18n';

// Strings come by language, through the backend: what a lost download does to a screen.
let flakyFailures = 0;
addTranslations('flaky', async (language) => {
  if (flakyFailures > 0) {
    flakyFailures -= 1;
    throw new Error('network');
  }
  return { default: { hello: `hello in ${language}` } };
});
let offline = false;
addTranslations('distant', async (language) => {
  if (offline) throw new Error('offline');
  return { greeting: `greeting in ${language}` };
});

beforeAll(async () => {
  flakyFailures = 2;
  await i18n
    .use(initReactI18next)
    .use(translationsBackend)
    .init({ lng: 'en', fallbackLng: false, ns: translationNamespaces(), maxRetries: 3, retryTimeout: 5, react: { useSuspense: false } });
});

test('a failed download is tried again, so a blip costs no words', async () => {
  await translationsReady();
  expect(i18n.t('flaky:hello')).toBe('hello in en');
  expect(i18n.t('distant:greeting')).toBe('greeting in en');
});

test('strings that cannot be had are reported, not shown as keys; they load once the network is back', async () => {
  offline = true;
  await expect(loadTranslations('de')).resolves.toEqual(['distant']);
  offline = false;
  await expect(loadTranslations('de')).resolves.toEqual([]);
  await i18n.changeLanguage('de');
  expect(i18n.t('distant:greeting')).toBe('greeting in de');
  await expect(translationsReady()).resolves.toBeUndefined();
});
