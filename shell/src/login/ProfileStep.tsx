import { useState } from 'react';
import { useNavigate } from '@messenger/router';
import { useTranslation } from 'react-i18next';
import { ApiError, FormError, clampCharacters, cleanUsername, config, errorText, isValidUsername, useSubmit, userApi } from '@messenger/shared';
import { useLoginStore } from './useLoginStore';
import { pathAfterSignIn } from './invite-code';

/** Step 3, new accounts only: name and username, both optional (Skip goes straight to the chats). */
export function ProfileStep() {
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  const reset = useLoginStore((state) => state.reset);
  const [name, setName] = useState('');
  const [username, setUsername] = useState('');
  const form = useSubmit((failure) =>
    failure instanceof ApiError && failure.status === 409 ? t('login.usernameTaken') : errorText(failure, 'shell:login.error'),
  );
  const cleaned = cleanUsername(username);
  const usernameValid = isValidUsername(cleaned);

  const finish = () => {
    reset();
    navigate(pathAfterSignIn(), { replace: true, state: { refresh: true } });
  };

  const save = form.handler(async () => {
    if (!usernameValid) return;
    await userApi.edit({ name: name.trim(), ...(cleaned ? { username: cleaned } : {}) });
    finish();
  });

  return (
    <form className="shell-form" onSubmit={save} noValidate>
      <h2>{t('login.profileTitle')}</h2>
      <p>{t('login.profileSubtitle')}</p>
      <label className="ui-field">
        <span>{t('login.name')}</span>
        <input value={name} autoComplete="name" onChange={(event) => setName(clampCharacters(event.target.value, config.nameMax))} autoFocus />
      </label>
      <label className="ui-field">
        <span>{t('login.username')}</span>
        <input
          value={username}
          maxLength={config.usernameMax + 1}
          autoComplete="username"
          aria-invalid={!usernameValid}
          aria-describedby="username-hint"
          onChange={(event) => setUsername(event.target.value)}
        />
      </label>
      <p id="username-hint" className="ui-hint">
        {t('login.usernameHint')}
      </p>
      <FormError error={form.error} />
      <button type="submit" className="ui-button ui-button-primary" disabled={!usernameValid || form.busy || (!name.trim() && !cleaned)}>
        {t('login.save')}
      </button>
      <button type="button" className="ui-button" onClick={finish}>
        {t('login.skip')}
      </button>
    </form>
  );
}
