import i18next from 'i18next';
import type { Language } from './config';
import { ApiError } from './api/errors';
import { ERROR_CODE_KEYS, SERVER_STRING_KEYS } from './rules/server-strings';
import en from './locales/en.json';
import ru from './locales/ru.json';
import tr from './locales/tr.json';
import es from './locales/es.json';
import it from './locales/it.json';
import de from './locales/de.json';
import fr from './locales/fr.json';

/** The one i18next instance (shared as a singleton); the shell initialises it, remotes add their namespaces. */
export const i18n = i18next;

/**
 * Adds a remote's strings for every language under its own namespace. Before the shell has initialised i18next
 * (a remote loaded on its own, or a test) the strings wait for it.
 */
export function addTranslations(namespace: string, resources: Record<Language, object>): void {
  const add = () => {
    for (const [language, bundle] of Object.entries(resources)) i18n.addResourceBundle(language, namespace, bundle, true, true);
  };
  if (i18n.isInitialized) add();
  else i18n.on('initialized', add);
}

/**
 * "Too many attempts, try again in …" with the wait in words a person reads at a glance: seconds under a minute,
 * else whole minutes (rounded up) under two hours, else hours, each with its language's plural forms.
 */
export function tooManyRequestsText(seconds: number): string {
  const wait = Math.max(1, Math.ceil(seconds));
  if (wait < 60) return i18n.t('common:errors.tooManyRequestsSeconds', { count: wait });
  const minutes = Math.ceil(wait / 60);
  if (minutes < 120) return i18n.t('common:errors.tooManyRequestsMinutes', { count: minutes });
  return i18n.t('common:errors.tooManyRequestsHours', { count: Math.ceil(minutes / 60) });
}

/**
 * The text to show for a failure, always in the person's language: a spec §8 server string or the server's error
 * code mapped to its translation, else the given fallback key. The server's own English `message` is never shown.
 */
export function errorText(error: unknown, fallbackKey: string): string {
  if (error instanceof ApiError) {
    if (error.isNetworkError) return i18n.t('common:errors.network');
    const key = SERVER_STRING_KEYS[error.message] ?? ERROR_CODE_KEYS[error.code];
    if (key) return i18n.t(`common:${key}`);
    if (error.status === 429) return tooManyRequestsText(error.retryAfterSeconds ?? 60);
    // An error code we have no words for: the caller's own (translated) text, never the server's English.
  }
  return i18n.t(fallbackKey);
}

/** Strings every app uses (actions, loading, the server's error strings): the `common` namespace. */
addTranslations('common', { en, ru, tr, es, it, de, fr });
