import { addTranslations } from '@messenger/shared';

/** This remote's strings, under its own namespace in the shell's i18next instance. */
export const NAMESPACE = 'messenger';
// Only the language in use is downloaded (a chunk per language); another one when the person switches to it.
addTranslations(NAMESPACE, (language) => import(/* webpackChunkName: "strings-[request]" */ `./locales/${language}.json`));
