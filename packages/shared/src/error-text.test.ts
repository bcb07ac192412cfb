import { initTestI18n } from './testing';
import { errorText, i18n } from './i18n';
import { ApiError } from './api/errors';
import { MediaAccessError } from './media/devices';
import { ERROR_CODE_KEYS } from './rules/server-strings';
import en from './locales/en.json';

beforeAll(async () => {
  await initTestI18n();
});
afterEach(async () => {
  await i18n.changeLanguage('en');
});

test('a server error code is shown in the person’s language, not as the server’s English text', async () => {
  const unknownCode = new ApiError(404, 'chat_code_unknown', 'No chat has this code');
  expect(errorText(unknownCode, 'messenger:groups.joinError')).toBe('No chat has this code.');
  await i18n.changeLanguage('de');
  expect(errorText(unknownCode, 'messenger:groups.joinError')).toBe('Kein Chat hat diesen Code.');
  await i18n.changeLanguage('ru');
  expect(errorText(new ApiError(409, 'username_taken', 'This username is already taken'), 'x')).toBe('Это имя пользователя уже занято.');
  expect(errorText(new ApiError(404, 'chat_not_found', "chat isn't available anymore"), 'x')).not.toMatch(/available/);
});

test('a code without words of its own falls back to the caller’s translated text, never the raw message', async () => {
  await i18n.changeLanguage('fr');
  expect(errorText(new ApiError(400, 'something_new', 'Some English sentence'), 'common:errors.generic')).toBe(i18n.t('common:errors.generic'));
});

test('every mapped code has an English text', () => {
  const texts = en.serverErrors as Record<string, string>;
  for (const key of Object.values(ERROR_CODE_KEYS)) expect(texts[key.replace('serverErrors.', '')]).toBeTruthy();
  // The siblings of "No chat has this code" the issue found.
  for (const code of ['chat_code_unknown', 'invalid_code', 'username_taken', 'guests_not_allowed', 'owner_only', 'invite_unknown', 'already_in_call']) {
    expect(ERROR_CODE_KEYS[code]).toBeDefined();
  }
});

test('a camera that stopped mid-call is said so, not as a refused access', () => {
  expect(errorText(new MediaAccessError('The camera stopped.', 'Ended'), 'x')).toBe(en.media.cameraStopped);
});
