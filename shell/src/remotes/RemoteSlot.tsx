import { Component, Suspense, lazy, useState, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
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
}

/**
 * Lazy components per remote module and attempt, made once: a component created while rendering would remount
 * on every render. `React.lazy` remembers a rejected import, so each retry needs a new one — a new attempt.
 */
const lazyComponents = new Map<string, LazyExoticComponent<ComponentType<object>>>();

function remoteComponent<P extends object>(remote: RemoteName, module: string, attempt: number): LazyExoticComponent<ComponentType<P>> {
  const key = `${remote}/${module}#${attempt}`;
  let component = lazyComponents.get(key);
  if (!component) {
    component = lazy(async () => {
      const exposed = await loadExposed<{ default: ComponentType<object> }>(remote, module, attempt > 0);
      return { default: exposed.default };
    });
    lazyComponents.set(key, component);
  }
  return component as LazyExoticComponent<ComponentType<P>>;
}

/**
 * One exposed component of a remote, loaded at run time. If the remote cannot be loaded (or throws), only this
 * slot shows a translated fallback with a retry button; the rest of the shell keeps working.
 */
export function RemoteSlot<P extends object>({ remote, module, props, quiet = false }: RemoteSlotProps<P>) {
  const [attempt, setAttempt] = useState(0);
  const Loaded = remoteComponent<P>(remote, module, attempt);
  return (
    <RemoteBoundary key={attempt} fallback={quiet ? null : <RemoteFallback onRetry={() => setAttempt((n) => n + 1)} />}>
      <Suspense fallback={quiet ? null : <RemoteLoading />}>
        {/* eslint-disable-next-line react-hooks/static-components -- made once per remote, module and attempt (above) */}
        <Loaded {...(props ?? ({} as P))} />
      </Suspense>
    </RemoteBoundary>
  );
}
