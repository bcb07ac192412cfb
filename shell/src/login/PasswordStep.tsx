import { useState, type FormEvent } from 'react';
import { useNavigate } from '@messenger/router';
import { useTranslation } from 'react-i18next';
import { authApi, beginSession, errorText, formatPhone } from '@messenger/shared';
import { useLoginStore } from './useLoginStore';
import { loginErrorText } from './login-errors';
import { pathAfterSignIn, takeInviteCode } from './invite-code';

/**
 * Staff steps 2 and 3 (spec §2): the password, then the extra (cloud) password. The first answers with a
 * short-lived ticket, so the second needs both to have been right.
 */
export function PasswordStep({ extra }: { extra: boolean }) {
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  const { phone, ticket, passwordAccepted, signedIn, reset } = useLoginStore();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password || busy) return;
    setBusy(true);
    setError(null);
    try {
      if (!extra) {
        const result = await authApi.signInManager(phone, password, takeInviteCode());
        setPassword('');
        passwordAccepted(result.ticket);
      } else {
        const result = await authApi.signInManagerExtra(phone, password, ticket, takeInviteCode());
        beginSession(result.jwt_info);
        signedIn(false);
        navigate(pathAfterSignIn(), { replace: true, state: { refresh: true } });
      }
    } catch (failure) {
      setError(loginErrorText(failure) ?? errorText(failure, 'shell:login.error'));
      setPassword('');
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="shell-form" onSubmit={submit} noValidate key={extra ? 'extra' : 'password'}>
      <h2>{extra ? t('login.extraTitle') : t('login.passwordTitle')}</h2>
      <p>{extra ? t('login.extraSubtitle') : t('login.passwordSubtitle', { phone: formatPhone(phone) })}</p>
      <label className="ui-field">
        <span>{extra ? t('login.extraPassword') : t('login.password')}</span>
        <input type="password" autoComplete={extra ? 'off' : 'current-password'} value={password} onChange={(event) => setPassword(event.target.value)} autoFocus />
      </label>
      {error && (
        <p className="ui-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="ui-button ui-button-primary" disabled={!password || busy}>
        {extra ? t('login.signIn') : t('login.continue')}
      </button>
      <button type="button" className="shell-link-button" onClick={reset}>
        {t('login.startOver')}
      </button>
    </form>
  );
}
