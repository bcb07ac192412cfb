import Cookies from 'js-cookie';
import { PRODUCT_KEY, config } from '../config';

/**
 * The spec's cookie helper: values under a product prefix, strict same-site, secure wherever the page is served
 * over HTTPS (browsers refuse Secure cookies on plain-HTTP hosts other than localhost), scoped to this host.
 */
const prefix = `${PRODUCT_KEY}_`;

function attributes(days: number): Cookies.CookieAttributes {
  const secure = typeof location !== 'undefined' && location.protocol === 'https:';
  return { expires: days, sameSite: 'strict', secure, path: '/' };
}

export const cookies = {
  set(name: string, value: string, days: number = config.cookieDays): void {
    Cookies.set(prefix + name, value, attributes(days));
  },
  get(name: string): string | undefined {
    return Cookies.get(prefix + name);
  },
  remove(name: string): void {
    Cookies.remove(prefix + name, { path: '/' });
  },
  list(): Record<string, string> {
    return Object.fromEntries(
      Object.entries(Cookies.get())
        .filter(([name]) => name.startsWith(prefix))
        .map(([name, value]) => [name.slice(prefix.length), value]),
    );
  },
  clear(): void {
    for (const name of Object.keys(this.list())) this.remove(name);
  },
};
