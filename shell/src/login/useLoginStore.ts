import { create } from 'zustand';

export type LoginStep = 'phone' | 'code' | 'profile';

/** Spec §3 login state: step, phone, manager flag, resend lock. Reset returns to the start and clears it. */
export interface LoginState {
  step: LoginStep;
  phone: string;
  isManager: boolean;
  /** When the code may be sent again (ms since the epoch). */
  resendAt: number;
  codeSent(phone: string, isManager: boolean, resendAt: number): void;
  signedIn(isNewUser: boolean): void;
  setResendAt(resendAt: number): void;
  reset(): void;
}

const initial = { step: 'phone' as LoginStep, phone: '', isManager: false, resendAt: 0 };

export const useLoginStore = create<LoginState>((set) => ({
  ...initial,
  codeSent: (phone, isManager, resendAt) => set({ step: 'code', phone, isManager, resendAt }),
  signedIn: (isNewUser) => set(isNewUser ? { step: 'profile' } : initial),
  setResendAt: (resendAt) => set({ resendAt }),
  reset: () => set(initial),
}));
