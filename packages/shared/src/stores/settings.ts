import { create } from 'zustand';
import { DEFAULT_LANGUAGE, DEFAULT_THEME, LANGUAGES, THEMES, type Language, type Theme } from '../config';
import { localSettings } from '../storage/local';

export interface SettingsState {
  language: Language;
  theme: Theme;
  backgroundPattern: boolean;
  setLanguage(language: Language): void;
  setTheme(theme: Theme): void;
  setBackgroundPattern(on: boolean): void;
}

function stored<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
  const value = localSettings.get(name);
  return allowed.includes(value as T) ? (value as T) : fallback;
}

/** Local settings (spec §1): language, theme and background pattern, kept in this browser. */
export const useSettingsStore = create<SettingsState>((set) => ({
  language: stored('language', LANGUAGES, DEFAULT_LANGUAGE),
  theme: stored('theme', THEMES, DEFAULT_THEME),
  backgroundPattern: localSettings.get('background-pattern') !== 'off',
  setLanguage: (language) => {
    localSettings.set('language', language);
    set({ language });
  },
  setTheme: (theme) => {
    localSettings.set('theme', theme);
    set({ theme });
  },
  setBackgroundPattern: (on) => {
    localSettings.set('background-pattern', on ? 'on' : 'off');
    set({ backgroundPattern: on });
  },
}));
