import { PRODUCT_KEY } from '../config';

/** Local settings (language, theme, background pattern) under the product prefix; failures fall back quietly. */
export const localSettings = {
  get(name: string): string | null {
    try {
      return localStorage.getItem(`${PRODUCT_KEY}.${name}`);
    } catch {
      return null;
    }
  },
  set(name: string, value: string): void {
    try {
      localStorage.setItem(`${PRODUCT_KEY}.${name}`, value);
    } catch {
      // Private mode or a full quota: the setting lasts for this page only.
    }
  },
  remove(name: string): void {
    try {
      localStorage.removeItem(`${PRODUCT_KEY}.${name}`);
    } catch {
      // Nothing stored there to remove.
    }
  },
};
