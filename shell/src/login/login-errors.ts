import { ApiError, ServerStrings, i18n } from '@messenger/shared';

/** Sign-in failures with their own wording (spec §8: "you are banned" maps to a specific login error). */
export function loginErrorText(error: unknown): string | undefined {
  if (error instanceof ApiError && error.message === ServerStrings.banned) return i18n.t('shell:login.banned');
  return undefined;
}
