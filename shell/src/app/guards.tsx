import { useEffect, useState, type ReactNode } from 'react';
import { Navigate, Outlet } from '@messenger/router';
import { useTranslation } from 'react-i18next';
import { Role, errorText, startSession, useAuthStore } from '@messenger/shared';
import { SetPasswordsPage } from './SetPasswordsPage';

/** Spec §2: with no token stored, every chat or admin route goes to sign-in. */
export function RequireSession() {
  const hasSession = useAuthStore((state) => state.hasSession);
  if (!hasSession) return <Navigate to="/login" replace />;
  return (
    <SessionGate>
      <Outlet />
    </SessionGate>
  );
}

/** Staff screens are for admins (role ≥ 2); anyone else is sent to the chats. */
export function RequireAdmin() {
  const role = useAuthStore((state) => state.user?.role ?? 0);
  if (role < Role.admin) return <Navigate to="/" replace />;
  return <Outlet />;
}

/** Loads the signed-in person, their chats and contacts, and opens the live connection, once per session. */
function SessionGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const user = useAuthStore((state) => state.user);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (user) return;
    let cancelled = false;
    startSession().catch((failure: unknown) => {
      if (!cancelled) setError(errorText(failure, 'shell:session.loadFailed'));
    });
    return () => {
      cancelled = true;
    };
  }, [user, attempt]);

  if (user && user.role >= Role.manager && user.password_set === false) return <SetPasswordsPage />;
  if (user) return children;
  if (error) {
    return (
      <div className="shell-centered" role="alert">
        <p>{error}</p>
        <button
          type="button"
          className="ui-button"
          onClick={() => {
            setError(null);
            setAttempt((n) => n + 1);
          }}
        >
          {t('common:actions.retry')}
        </button>
      </div>
    );
  }
  return (
    <div className="shell-centered" role="status">
      {t('common:loading')}
    </div>
  );
}
