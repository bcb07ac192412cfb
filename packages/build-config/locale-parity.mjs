// Every language must have every key the English file has, with a non-empty text and the same placeholders.
// Plural keys (`x_one`, `x_other`…) are checked against the plural forms each language really has.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const LANGUAGES = ['en', 'ru', 'tr', 'es', 'it', 'de', 'fr'];
const PLURAL = /_(zero|one|two|few|many|other)$/;

function flatten(object, prefix = '') {
  return Object.entries(object).flatMap(([key, value]) =>
    value && typeof value === 'object' ? flatten(value, `${prefix}${key}.`) : [[`${prefix}${key}`, value]],
  );
}

// `count` may be left out of a plural form that names the number in words ("one message").
const placeholders = (text) =>
  [...new Set([...String(text ?? '').matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).filter((name) => name !== 'count'))]
    .sort()
    .join(',');

/** The keys a language must have for one English key: itself, or every plural form of its base. */
function requiredKeys(key, language) {
  if (!PLURAL.test(key)) return [key];
  const base = key.replace(PLURAL, '');
  return new Intl.PluralRules(language).resolvedOptions().pluralCategories.map((form) => `${base}_${form}`);
}

/** Returns a list of problems (empty when all languages are complete) for the JSON files in `dir`. */
export function localeProblems(dir) {
  const files = readdirSync(dir).filter((name) => name.endsWith('.json'));
  const problems = LANGUAGES.filter((language) => !files.includes(`${language}.json`)).map((language) => `${language}.json is missing`);
  if (problems.length > 0) return problems;
  const load = (language) => new Map(flatten(JSON.parse(readFileSync(join(dir, `${language}.json`), 'utf8'))));
  const english = load('en');
  const englishBases = new Set([...english.keys()].map((key) => key.replace(PLURAL, '')));
  for (const language of LANGUAGES.slice(1)) {
    const other = load(language);
    for (const [key, value] of english) {
      for (const wanted of requiredKeys(key, language)) {
        const text = other.get(wanted);
        if (typeof text !== 'string' || text.trim() === '') problems.push(`${language}: missing "${wanted}"`);
        else if (placeholders(text) !== placeholders(value)) {
          problems.push(`${language}: "${wanted}" has placeholders {${placeholders(text)}}, en has {${placeholders(value)}}`);
        }
      }
    }
    for (const [key] of other) {
      if (!english.has(key) && !englishBases.has(key.replace(PLURAL, ''))) problems.push(`${language}: "${key}" is not in en`);
    }
  }
  return [...new Set(problems)];
}
