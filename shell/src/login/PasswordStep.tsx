import { useState } from 'react';
import { useNavigate } from '@messenger/router';
import { useTranslation } from 'react-i18next';
import { FormError, authApi, beginSession, errorText, usePhoneFormatter, useSubmit } from '@messenger/shared';
import { useLoginStore } from './useLoginStore';
import { loginErrorText } from './login-errors';
import { pathAfterSignIn, takeInviteCode } from './invite-code';

/**
 * Staff steps 2 and 3 (spec §2): the password, then the extra (cloud) password. The first answers with a
 * short-lived ticket, so the second needs both to have been right.
 */
export function PasswordStep({ extra }: { extra: boolean }) {
  const formatPhone = usePhoneFormatter();
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  const { phone, ticket, passwordAccepted, signedIn, reset } = useLoginStore();
  const [password, setPassword] = useState('');
  const form = useSubmit((failure) => loginErrorText(failure) ?? errorText(failure, 'shell:login.error'));

  const submit = form.handler(async () => {
    if (!password) return;
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
      // A refused password is typed again from scratch.
      setPassword('');
      throw failure;
    }
  });

  return (
    <form className="shell-form" onSubmit={submit} noValidate key={extra ? 'extra' : 'password'}>
      <h2>{extra ? t('login.extraTitle') : t('login.passwordTitle')}</h2>
      <p>{extra ? t('login.extraSubtitle') : t('login.passwordSubtitle', { phone: formatPhone(phone) })}</p>
      <label className="ui-field">
        <span>{extra ? t('login.extraPassword') : t('login.password')}</span>
        <input type="password" autoComplete={extra ? 'off' : 'current-password'} value={password} onChange={(event) => setPassword(event.target.value)} autoFocus />
      </label>
      <FormError error={form.error} />
      <button type="submit" className="ui-button ui-button-primary" disabled={!password || form.busy}>
        {extra ? t('login.signIn') : t('login.continue')}
      </button>
      <button type="button" className="shell-link-button" onClick={reset}>
        {t('login.startOver')}
      </button>
    </form>
  );
}
