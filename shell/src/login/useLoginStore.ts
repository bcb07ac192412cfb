import { create } from 'zustand';

/**
 * Spec §2 login steps: the phone; then the SMS code — or, for staff, their password; then the extra (cloud)
 * password; a new account's profile last.
 */
export type LoginStep = 'phone' | 'code' | 'password' | 'extra' | 'profile';

/** Spec §3 login state: step, phone, manager flag, passwords, resend lock. Reset returns to the start and clears it. */
export interface LoginState {
  step: LoginStep;
  phone: string;
  isManager: boolean;
  /** Proof that the first password was right, for the extra-password step (never the password itself). */
  ticket: string;
  /** When the code may be sent again (ms since the epoch). */
  resendAt: number;
  /** Why the last session ended, when the server said (blocked): shown on the phone step until a new sign-in begins. */
  endedBecause: string | null;
  sessionEnded(reason: string | null): void;
  codeSent(phone: string, isManager: boolean, resendAt: number): void;
  passwordNeeded(phone: string): void;
  passwordAccepted(ticket: string): void;
  signedIn(isNewUser: boolean): void;
  setResendAt(resendAt: number): void;
  reset(): void;
}

const initial = { step: 'phone' as LoginStep, phone: '', isManager: false, ticket: '', resendAt: 0, endedBecause: null };

export const useLoginStore = create<LoginState>((set) => ({
  ...initial,
  codeSent: (phone, isManager, resendAt) => set({ step: 'code', phone, isManager, resendAt, endedBecause: null }),
  sessionEnded: (reason) => set({ ...initial, endedBecause: reason }),
  passwordNeeded: (phone) => set({ step: 'password', phone, isManager: true, endedBecause: null }),
  passwordAccepted: (ticket) => set({ step: 'extra', ticket }),
  signedIn: (isNewUser) => set(isNewUser ? { step: 'profile', ticket: '' } : initial),
  setResendAt: (resendAt) => set({ resendAt }),
  reset: () => set(initial),
}));
