const KEY = 'msgr.invite-code';
const CODE = /^[A-Za-z0-9]{4,64}$/;

/** Keeps the invite code a person arrived with until they sign in (this tab only). */
export function rememberInviteCode(code: string): void {
  if (CODE.test(code)) sessionStorage.setItem(KEY, code);
}

export function takeInviteCode(): string | undefined {
  const code = sessionStorage.getItem(KEY) ?? undefined;
  return code && CODE.test(code) ? code : undefined;
}

export function forgetInviteCode(): void {
  sessionStorage.removeItem(KEY);
}
