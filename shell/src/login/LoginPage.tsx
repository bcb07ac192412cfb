import { Navigate, useLocation } from '@messenger/router';
import { useTranslation } from 'react-i18next';
import { LanguageSelect, useAuthStore } from '@messenger/shared';
import { useLoginStore } from './useLoginStore';
import { PhoneStep } from './PhoneStep';
import { CodeStep } from './CodeStep';
import { ProfileStep } from './ProfileStep';
import { PasswordStep } from './PasswordStep';

/**
 * Sign-in (spec §2): phone, then the SMS code, then — for a new account — name and username (skippable).
 * With a session already stored, this page sends the person to the chats.
 */
export function LoginPage() {
  const { t } = useTranslation('shell');
  const step = useLoginStore((state) => state.step);
  const endedBecause = useLoginStore((state) => state.endedBecause);
  const hasSession = useAuthStore((state) => state.hasSession);
  const invited = Boolean((useLocation().state as { invited?: boolean } | null)?.invited);
  if (hasSession && step !== 'profile') return <Navigate to="/" replace state={{ refresh: true }} />;
  return (
    <main className="shell-login">
      <div className="shell-login-card">
        <div className="shell-login-logo" aria-hidden="true" />
        <h1>{t('login.title')}</h1>
        {invited && step === 'phone' && <p className="shell-login-note">{t('login.invited')}</p>}
        {endedBecause && step === 'phone' && (
          <p className="ui-error" role="alert">
            {endedBecause}
          </p>
        )}
        {step === 'phone' && <PhoneStep />}
        {step === 'code' && <CodeStep />}
        {step === 'password' && <PasswordStep extra={false} />}
        {step === 'extra' && <PasswordStep extra />}
        {step === 'profile' && <ProfileStep />}
        <LanguageSelect label={t('login.language')} className="ui-field shell-login-language" />
      </div>
    </main>
  );
}
