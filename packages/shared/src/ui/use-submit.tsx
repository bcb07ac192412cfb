import { useCallback, useEffect, useRef, useState } from 'react';
import { useNotificationsStore } from '../stores/notifications';

export interface Submit {
  /** True from the start of an action until it settles; a second action meanwhile is ignored. */
  busy: boolean;
  /** The last failure in words, shown inline by `FormError`; cleared when the next action starts. */
  error: string | null;
  /** Runs `action` unless one is running; resolves true when it succeeded. */
  run: (action: () => Promise<void>) => Promise<boolean>;
  /** A form's `onSubmit` (or a button's `onClick`) that runs `action` without the page's own submit. */
  handler: (action: () => Promise<void>) => (event?: { preventDefault(): void }) => void;
  clearError: () => void;
}

/**
 * The busy / error scaffolding of a form or a confirm button: one action at a time (a double click sends
 * once), the failure put into words by `describe` and shown inline (`FormError`) or, for a dialog that has no
 * room for it, as a toast. An action that closes its own dialog on success leaves nothing to update.
 */
export function useSubmit(describe: (failure: unknown) => string, report: 'inline' | 'toast' = 'inline'): Submit {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The ref, not the state, guards against a second action: two clicks can land before React renders again.
  const running = useRef(false);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  // Made anew each render, so a failure is put into words by the latest `describe` (its translations, its state).
  const run = async (action: () => Promise<void>) => {
    if (running.current) return false;
    running.current = true;
    setBusy(true);
    setError(null);
    try {
      await action();
      return true;
    } catch (failure) {
      const text = describe(failure);
      if (report === 'toast') useNotificationsStore.getState().push({ kind: 'error', text });
      else if (mounted.current) setError(text);
      return false;
    } finally {
      running.current = false;
      if (mounted.current) setBusy(false);
    }
  };

  const handler = (action: () => Promise<void>) => (event?: { preventDefault(): void }) => {
    event?.preventDefault();
    void run(action);
  };

  const clearError = useCallback(() => setError(null), []);
  return { busy, error, run, handler, clearError };
}

/** A form's failure, announced as it appears. */
export function FormError({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <p className="ui-error" role="alert">
      {error}
    </p>
  );
}
