import { Component, useEffect, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { translationsReady } from '@messenger/shared';
import { loadExposed, type RemoteName } from './registry';

interface BoundaryProps {
  fallback: ReactNode;
  children: ReactNode;
}

class RemoteBoundary extends Component<BoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.warn('a remote failed to load or render', error);
  }

  override render(): ReactNode {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

export function RemoteFallback({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation('shell');
  return (
    <div className="shell-remote-fallback" role="alert">
      <p>{t('remote.failed')}</p>
      <button type="button" className="ui-button" onClick={onRetry}>
        {t('remote.retry')}
      </button>
    </div>
  );
}

export function RemoteLoading() {
  const { t } = useTranslation('shell');
  return (
    <div className="shell-remote-loading" role="status" aria-live="polite">
      {t('remote.loading')}
    </div>
  );
}

interface RemoteSlotProps<P extends object> {
  remote: RemoteName;
  module: string;
  props?: P;
  /** An overlay rather than a page part: nothing shows while it loads, and a failure shows nothing either. */
  quiet?: boolean;
  /** Told when the remote could not be loaded (a quiet slot's owner then says so its own way). */
  onFailed?: () => void;
}

type Loaded = { default: ComponentType<object> };
type Load = { promise: Promise<Loaded>; loaded?: Loaded };

/**
 * Exposed modules per remote, module and attempt, loaded once and kept: a slot whose module is already here
 * renders it in its first render. A failed attempt stays failed; a retry is a new attempt.
 */
const loads = new Map<string, Load>();
/**
 * The last attempt that failed, per remote and module: a slot mounted later starts after it, so a remote that was
 * down is asked again (an overlay such as the call layer mounts afresh for each call, and has no Retry button).
 */
const lastFailed = new Map<string, number>();

function firstAttempt(remote: RemoteName, module: string): number {
  const failed = lastFailed.get(`${remote}/${module}`);
  return failed === undefined ? 0 : failed + 1;
}

function startLoad(remote: RemoteName, module: string, attempt: number): Load {
  const key = `${remote}/${module}#${attempt}`;
  let load = loads.get(key);
  if (!load) {
    // Shown once its strings are there too: the module registered them as it ran, in the language in use.
    const promise = loadExposed<Loaded>(remote, module, attempt > 0).then(async (loaded) => {
      await translationsReady();
      return loaded;
    });
    const started: Load = { promise };
    started.promise.then(
      (loaded) => (started.loaded = loaded),
      () => lastFailed.set(`${remote}/${module}`, Math.max(attempt, lastFailed.get(`${remote}/${module}`) ?? -1)), // the slot shows it
    );
    loads.set(key, started);
    load = started;
  }
  return load;
}

/**
 * Starts loading a remote's module before any slot asks for it (the shell does so for the page it opens on, in
 * parallel with signing in), so that the slot can show it at once.
 */
export function preloadRemote(remote: RemoteName, module: string): Promise<void> {
  // Settles once a slot could show it (or its failure); nothing here throws.
  return startLoad(remote, module, 0).promise.then(
    () => undefined,
    () => undefined,
  );
}

/**
 * The module of one attempt: loaded, failed, or still on its way. A state, not React.lazy with Suspense: React 19
 * holds content back for up to 300 ms after a Suspense fallback was shown, which the call set-up bench measured as
 * the largest single delay before a meeting tab could start connecting.
 */
function useExposed(remote: RemoteName, module: string, attempt: number): { component?: ComponentType<object>; failed: boolean } {
  const load = startLoad(remote, module, attempt);
  const [settled, setSettled] = useState<{ load: Load; component?: ComponentType<object>; failed: boolean } | null>(null);
  useEffect(() => {
    // Subscribed even when the module is already here: it may have arrived between the render that showed the
    // loading state and this effect, and only a state change renders the slot again.
    let current = true;
    load.promise.then(
      (loaded) => current && setSettled({ load, component: loaded.default, failed: false }),
      (error: unknown) => {
        console.warn('a remote failed to load', error);
        if (current) setSettled({ load, failed: true });
      },
    );
    return () => {
      current = false;
    };
  }, [load]);
  if (load.loaded) return { component: load.loaded.default, failed: false };
  if (settled?.load === load) return { component: settled.component, failed: settled.failed };
  return { failed: false };
}

/**
 * One exposed component of a remote, loaded at run time. If the remote cannot be loaded (or throws), only this
 * slot shows a translated fallback with a retry button; the rest of the shell keeps working.
 */
export function RemoteSlot<P extends object>({ remote, module, props, quiet = false, onFailed }: RemoteSlotProps<P>) {
  const [attempt, setAttempt] = useState(() => firstAttempt(remote, module));
  const { component: Exposed, failed } = useExposed(remote, module, attempt);
  const told = useRef(onFailed);
  useEffect(() => {
    told.current = onFailed;
  }, [onFailed]);
  useEffect(() => {
    if (failed) told.current?.();
  }, [failed]);
  const fallback = quiet ? null : <RemoteFallback onRetry={() => setAttempt((n) => n + 1)} />;
  if (failed) return fallback;
  if (!Exposed) return quiet ? null : <RemoteLoading />;
  return (
    <RemoteBoundary key={attempt} fallback={fallback}>
      <Exposed {...(props ?? ({} as P))} />
    </RemoteBoundary>
  );
}
