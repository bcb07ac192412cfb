import i18next, { type ReadCallback, type ResourceKey } from 'i18next';
import resourcesToBackend from 'i18next-resources-to-backend';
import type { Language } from './config';
import { ApiError } from './api/errors';
import { MediaAccessError } from './media/devices';

/** The browser's reasons for refusing a microphone, camera or screen (`getUserMedia`), as our words for them. */
const MEDIA_REASON_KEYS: Record<string, string | undefined> = {
  NotAllowedError: 'notAllowed',
  SecurityError: 'notAllowed',
  NotFoundError: 'notFound',
  OverconstrainedError: 'notFound',
  NotReadableError: 'notReadable',
  AbortError: 'notReadable',
  NotSupportedError: 'notSupported',
  // Ours: a camera that stopped in the middle of a call (unplugged, or taken by another app).
  Ended: 'cameraStopped',
};
import { ERROR_CODE_KEYS, SERVER_STRING_KEYS } from './rules/server-strings';

/** The one i18next instance (shared as a singleton); the shell initialises it, remotes add their namespaces. */
export const i18n = i18next;

/** One language's strings of a namespace: a JSON module, each language a chunk of its own. */
export type LoadTranslations = (language: Language) => Promise<{ default: object } | object>;

const namespaces = new Map<string, LoadTranslations>();

/**
 * i18next's backend (the shell's `use`): a namespace's strings in one language, fetched through the loader its
 * app registered. Only the language in use is downloaded; another one when the person switches to it. A failed
 * download is reported as one to retry, so i18next tries again (`maxRetries` times, the waits doubling from
 * 350 ms; the shell asks for 2).
 */
export const translationsBackend = resourcesToBackend(
  (language: string, namespace: string, callback: ReadCallback) => {
    const load = namespaces.get(namespace);
    if (!load) {
      callback(new Error(`no strings registered for the namespace ${namespace}`), false);
      return;
    }
    load(language as Language).then(
      (bundle) => callback(null, ('default' in bundle ? bundle.default : bundle) as ResourceKey),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), true),
    );
  },
);

/**
 * Registers an app's strings under its own namespace: a dynamic import of `./locales/<language>.json` per language.
 * Once i18next runs, the current language's bundle starts loading at once; `translationsReady` says when it is
 * there (the shell waits for it before showing a remote). A remote built before strings were split passes every
 * language's strings at once, which are added as they are.
 */
export function addTranslations(namespace: string, load: LoadTranslations | Record<Language, object>): void {
  if (typeof load !== 'function') {
    const add = () => {
      for (const [language, bundle] of Object.entries(load)) i18n.addResourceBundle(language, namespace, bundle, true, true);
    };
    if (i18n.isInitialized) add();
    else i18n.on('initialized', add);
    return;
  }
  namespaces.set(namespace, load);
  if (i18n.isInitialized) void i18n.loadNamespaces(namespace);
}

/** Every registered namespace, for i18next's `ns` at start (the shell, tests). */
export function translationNamespaces(): string[] {
  return [...namespaces.keys()];
}

/** Those of `namespaces` that have no strings in `language` yet. */
function missingIn(language: string, namespaces: string[]): string[] {
  return namespaces.filter((namespace) => !i18n.hasResourceBundle(language, namespace));
}

/**
 * Loads `language`'s strings of every namespace registered when called (those already here stay), trying once
 * more what failed; resolves with those still missing (none when it worked). A namespace registered meanwhile
 * (another remote loading at the same moment) is not waited for: it is its own caller's, and was reported here
 * as "could not be loaded" while its strings were still on their way (a staff screen refused so, in the cluster's
 * end-to-end run, for want of the messenger's strings loading beside it).
 */
export async function loadTranslations(language: string): Promise<string[]> {
  const wanted = translationNamespaces();
  await i18n.loadLanguages(language);
  const missing = missingIn(language, wanted);
  if (missing.length > 0) await i18n.reloadResources([language], missing);
  return missingIn(language, wanted);
}

/**
 * Resolves when every registered namespace has its strings in the current language (loading those that lack
 * them); rejects when some could not be downloaded, so that a remote shows its fallback and Retry rather than
 * bare keys.
 */
export async function translationsReady(): Promise<void> {
  if (!i18n.isInitialized) {
    await new Promise<void>((resolve) => {
      const started = () => {
        i18n.off('initialized', started);
        resolve();
      };
      i18n.on('initialized', started);
    });
  }
  const missing = await loadTranslations(i18n.language);
  if (missing.length > 0) throw new Error(`the strings of ${missing.join(', ')} in ${i18n.language} could not be loaded`);
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
  if (error instanceof MediaAccessError) return i18n.t(`common:media.${MEDIA_REASON_KEYS[error.reason] ?? 'failed'}`);
  if (error instanceof ApiError) {
    if (error.isNetworkError) return i18n.t('common:errors.network');
    const key = (SERVER_STRING_KEYS as Record<string, string | undefined>)[error.message] ?? ERROR_CODE_KEYS[error.code];
    if (key) return i18n.t(`common:${key}`);
    if (error.status === 429) return tooManyRequestsText(error.retryAfterSeconds ?? 60);
    // An error code we have no words for: the caller's own (translated) text, never the server's English.
  }
  return i18n.t(fallbackKey);
}

/** Strings every app uses (actions, loading, the server's error strings): the `common` namespace. */
addTranslations('common', (language) => import(/* webpackChunkName: "strings-common-[request]" */ `./locales/${language}.json`));
