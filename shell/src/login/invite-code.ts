import { config } from '@messenger/shared';

const KEY = 'msgr.invite-code';
/** A person's invite code, or a group's join code (C- + 10 letters or digits). */
const CODE = /^(C-)?[A-Za-z0-9]{4,64}$/;

/** Keeps the code of the invite link a person arrived with until they have signed in (this tab only). */
export function rememberInviteCode(code: string): void {
  if (CODE.test(code)) sessionStorage.setItem(KEY, code);
}

function remembered(): string | undefined {
  const code = sessionStorage.getItem(KEY) ?? undefined;
  return code && CODE.test(code) ? code : undefined;
}

export function isGroupCode(code: string): boolean {
  return config.joinCodePattern.test(code);
}

/** The inviter's code for `?code=` on sign-in (a person's code only: it attributes the new account). */
export function takeInviteCode(): string | undefined {
  const code = remembered();
  return code && !isGroupCode(code) ? code : undefined;
}

/** Where to go after signing in: back to a group's link (to join it), else the chats. */
export function pathAfterSignIn(): string {
  const code = remembered();
  sessionStorage.removeItem(KEY);
  return code && isGroupCode(code) ? `/link/${code}` : '/';
}

export function forgetInviteCode(): void {
  sessionStorage.removeItem(KEY);
}
