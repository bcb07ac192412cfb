import { create } from 'zustand';

/**
 * The modal dialogs open now, the top one last. A modal dialog makes everything outside it inert, so what must
 * stay seen and usable above it (the toasts) is rendered inside the top one while it is open.
 */
export const useModalStack = create<{ open: HTMLDialogElement[] }>(() => ({ open: [] }));

export function modalOpened(dialog: HTMLDialogElement): void {
  useModalStack.setState((state) => ({ open: [...state.open.filter((known) => known !== dialog), dialog] }));
}

export function modalClosed(dialog: HTMLDialogElement): void {
  useModalStack.setState((state) => ({ open: state.open.filter((known) => known !== dialog) }));
}
