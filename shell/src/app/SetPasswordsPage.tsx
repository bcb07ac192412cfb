import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError, errorText, signOut, useAuthStore, useSubmit, userApi } from '@messenger/shared';

const MIN_LENGTH = 8;

/**
 * Staff without passwords yet (a first admin from ADMIN_PHONES) signed in with an SMS code once; before going
 * on they set their password and extra (cloud) password, which they will sign in with from now on.
 */
export function SetPasswordsPage() {
  const { t } = useTranslation('shell');
  const [password, setPassword] = useState('');
  const [extra, setExtra] = useState('');
  const form = useSubmit((failure) => errorText(failure, 'shell:passwords.error'));
  const problem =
    password.length > 0 && password.length < MIN_LENGTH
      ? t('passwords.tooShort', { count: MIN_LENGTH })
      : extra.length > 0 && extra === password
        ? t('passwords.different')
        : null;
  const ready = password.length >= MIN_LENGTH && extra.length >= MIN_LENGTH && extra !== password;

  const submit = form.handler(async () => {
    if (!ready) return;
    useAuthStore.getState().setUser(await userApi.setPasswords({ password, extra_password: extra }));
  });

  return (
    <main className="shell-login">
      <div className="shell-login-card">
        <h1>{t('passwords.title')}</h1>
        <form className="shell-form" onSubmit={submit} noValidate>
          <p>{t('passwords.explain')}</p>
          <label className="ui-field">
            <span>{t('login.password')}</span>
            <input type="password" autoComplete="new-password" value={password} onChange={(event) => setPassword(event.target.value)} autoFocus />
          </label>
          <label className="ui-field">
            <span>{t('login.extraPassword')}</span>
            <input type="password" autoComplete="off" value={extra} onChange={(event) => setExtra(event.target.value)} />
          </label>
          <FormError error={form.error ?? problem} />
          <button type="submit" className="ui-button ui-button-primary" disabled={!ready || form.busy}>
            {t('passwords.save')}
          </button>
          <button type="button" className="shell-link-button" onClick={() => signOut()}>
            {t('passwords.signOut')}
          </button>
        </form>
      </div>
    </main>
  );
}
