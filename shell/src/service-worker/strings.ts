// The few words the service worker says, from the shell's own translations (the key-parity test covers them).
import en from '../i18n/locales/en.json';
import ru from '../i18n/locales/ru.json';
import tr from '../i18n/locales/tr.json';
import es from '../i18n/locales/es.json';
import it from '../i18n/locales/it.json';
import de from '../i18n/locales/de.json';
import fr from '../i18n/locales/fr.json';

export interface WorkerStrings {
  appName: string;
  newMessage: string;
  mentioned: string;
  incomingCall: string;
  groupCall: string;
  missedCall: string;
  missedGroupCall: string;
  offlineTitle: string;
  offlineBody: string;
  offlineRetry: string;
}

type Locale = typeof en;
const pick = (appName: string, newMessage: string, push: Locale['push'], offline: Locale['offline']): WorkerStrings => ({
  appName,
  newMessage,
  ...push,
  offlineTitle: offline.title,
  offlineBody: offline.body,
  offlineRetry: offline.retry,
});

// Each locale's parts are named at the import, so the build keeps only them (not each whole locale file).
const BY_LANGUAGE: Record<string, WorkerStrings> = {
  en: pick(en.appName, en.notifications.newMessage, en.push, en.offline),
  ru: pick(ru.appName, ru.notifications.newMessage, ru.push, ru.offline),
  tr: pick(tr.appName, tr.notifications.newMessage, tr.push, tr.offline),
  es: pick(es.appName, es.notifications.newMessage, es.push, es.offline),
  it: pick(it.appName, it.notifications.newMessage, it.push, it.offline),
  de: pick(de.appName, de.notifications.newMessage, de.push, de.offline),
  fr: pick(fr.appName, fr.notifications.newMessage, fr.push, fr.offline),
};

/** The strings of a language the app speaks; English for anything else. */
export function stringsFor(language: string | null | undefined): WorkerStrings {
  return BY_LANGUAGE[language ?? ''] ?? BY_LANGUAGE.en!;
}

/** `{{name}}` placeholders, as i18next fills them. */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => values[name] ?? whole);
}
