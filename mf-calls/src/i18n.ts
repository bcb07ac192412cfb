import { addTranslations } from '@messenger/shared';

export const NAMESPACE = 'calls';
// Only the language in use is downloaded (a chunk per language); another one when the person switches to it.
addTranslations(NAMESPACE, (language) => import(/* webpackChunkName: "strings-[request]" */ `./locales/${language}.json`));
