import { useState, type FormEvent } from 'react';
import { useNavigate } from '@messenger/router';
import { useTranslation } from 'react-i18next';
import { ApiError, clampCharacters, cleanUsername, config, errorText, isValidUsername, userApi } from '@messenger/shared';
import { useLoginStore } from './useLoginStore';
import { pathAfterSignIn } from './invite-code';

/** Step 3, new accounts only: name and username, both optional (Skip goes straight to the chats). */
export function ProfileStep() {
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  const reset = useLoginStore((state) => state.reset);
  const [name, setName] = useState('');
  const [username, setUsername] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const cleaned = cleanUsername(username);
  const usernameValid = isValidUsername(cleaned);

  const finish = () => {
    reset();
    navigate(pathAfterSignIn(), { replace: true, state: { refresh: true } });
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!usernameValid || busy) return;
    setBusy(true);
    setError(null);
    try {
      await userApi.edit({ name: name.trim(), ...(cleaned ? { username: cleaned } : {}) });
      finish();
    } catch (failure) {
      setError(failure instanceof ApiError && failure.status === 409 ? t('login.usernameTaken') : errorText(failure, 'shell:login.error'));
    } finally {
      setBusy(false);
    }
  };

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
      {error && (
        <p className="ui-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="ui-button ui-button-primary" disabled={!usernameValid || busy || (!name.trim() && !cleaned)}>
        {t('login.save')}
      </button>
      <button type="button" className="ui-button" onClick={finish}>
        {t('login.skip')}
      </button>
    </form>
  );
}
