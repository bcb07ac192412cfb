export declare const LANGUAGES: string[];
/** Problems with the locale files in `dir` (missing languages, keys, texts or placeholders); empty when complete. */
export declare function localeProblems(dir: string): string[];
