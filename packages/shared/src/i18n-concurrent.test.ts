import { initReactI18next } from 'react-i18next';
import { addTranslations, i18n, translationNamespaces, translationsBackend, translationsReady } from './i18n';

// Remotes register their strings as their modules run, and the shell shows each once `translationsReady` says so.
// Two remotes loading at the same moment (a person's chat list and the staff area) must not fail each other.
const after = (ms: number, strings: object) => () => new Promise<object>((resolve) => setTimeout(() => resolve(strings), ms));

beforeAll(async () => {
  addTranslations('host', after(1, { title: 'Messenger' }));
  await i18n
    .use(initReactI18next)
    .use(translationsBackend)
    .init({ lng: 'en', fallbackLng: false, ns: translationNamespaces(), maxRetries: 2, retryTimeout: 5, react: { useSuspense: false } });
  await translationsReady();
});

test.each([
  ['the first remote’s strings come first', 10, 50],
  ['both come at once', 20, 20],
  ['the second remote’s strings come first', 50, 10],
])('two remotes loading at once each get their strings (%s)', async (_case, firstMs, secondMs) => {
  const [messenger, staff] = [`messenger-${firstMs}`, `staff-${firstMs}`];
  addTranslations(messenger, after(firstMs, { title: 'Chats' }));
  const messengerReady = translationsReady();
  await new Promise((resolve) => setTimeout(resolve, 0)); // the other remote's module runs a moment later
  addTranslations(staff, after(secondMs, { title: 'Employees' }));
  const staffReady = translationsReady();
  // Before, the first was refused: "the strings of staff-… in en could not be loaded", still on their way.
  await expect(messengerReady).resolves.toBeUndefined();
  await expect(staffReady).resolves.toBeUndefined();
  expect(i18n.t(`${messenger}:title`)).toBe('Chats');
  expect(i18n.t(`${staff}:title`)).toBe('Employees');
});
