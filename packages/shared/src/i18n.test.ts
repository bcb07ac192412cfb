import { initTestI18n } from './testing';
import { ApiError } from './api/errors';
import { errorText, i18n } from './i18n';

const limited = (seconds: number) => new ApiError(429, 'too_many_requests', 'Too many wrong passwords; try again later', seconds);

describe('waiting after too many attempts is said in words and in the person\'s language', () => {
  beforeAll(initTestI18n);
  afterEach(() => i18n.changeLanguage('en'));

  it('says minutes, not hundreds of seconds', async () => {
    expect(errorText(limited(753), 'x')).toBe('Too many attempts. Try again in 13 minutes.');
    expect(errorText(limited(60), 'x')).toBe('Too many attempts. Try again in 1 minute.');
    expect(errorText(limited(45), 'x')).toBe('Too many attempts. Try again in 45 seconds.');
    expect(errorText(limited(86_400), 'x')).toBe('Too many attempts. Try again in 24 hours.');
  });

  it.each([
    ['ru', 753, 'Слишком много попыток. Повторите через 13 минут.'],
    ['ru', 61 * 60, 'Слишком много попыток. Повторите через 61 минуту.'],
    ['ru', 122, 'Слишком много попыток. Повторите через 3 минуты.'],
    ['de', 753, 'Zu viele Versuche. Versuchen Sie es in 13 Minuten erneut.'],
    ['tr', 753, 'Çok fazla deneme yapıldı. 13 dakika sonra tekrar deneyin.'],
    ['fr', 1, 'Trop de tentatives. Réessayez dans 1 seconde.'],
    ['es', 7200, 'Demasiados intentos. Inténtalo de nuevo en 2 horas.'],
    ['it', 753, 'Troppi tentativi. Riprova tra 13 minuti.'],
  ])('in %s, %i s reads "%s"', async (language, seconds, expected) => {
    await i18n.changeLanguage(language);
    expect(errorText(limited(seconds), 'x')).toBe(expected);
  });
});
