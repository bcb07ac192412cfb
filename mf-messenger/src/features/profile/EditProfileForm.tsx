import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, clampCharacters, cleanUsername, config, errorText, isValidUsername, useAuthStore, useNotificationsStore, userApi, type Me } from '@messenger/shared';

export function EditProfileForm({ user, onDone }: { user: Me; onDone: () => void }) {
  const { t } = useTranslation('messenger');
  const [name, setName] = useState(user.name);
  const [username, setUsername] = useState(user.username ?? '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const cleaned = cleanUsername(username);
  const usernameValid = isValidUsername(cleaned);
  const changed = name.trim() !== user.name || cleaned !== (user.username ?? '');

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!changed || !usernameValid || busy) return;
    setBusy(true);
    setError(null);
    try {
      const updated = await userApi.edit({ name: name.trim(), username: cleaned || null });
      useAuthStore.getState().setUser(updated);
      useNotificationsStore.getState().push({ kind: 'success', text: t('profile.saved') });
      onDone();
    } catch (failure) {
      setError(failure instanceof ApiError && failure.status === 409 ? t('profile.usernameTaken') : errorText(failure, 'messenger:profile.saveError'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="msg-form" onSubmit={save} noValidate>
      <label className="ui-field">
        <span>{t('profile.name')}</span>
        <input value={name} onChange={(event) => setName(clampCharacters(event.target.value, config.nameMax))} />
      </label>
      <label className="ui-field">
        <span>{t('profile.username')}</span>
        <input
          value={username}
          maxLength={config.usernameMax + 1}
          aria-invalid={!usernameValid}
          aria-describedby="profile-username-hint"
          onChange={(event) => setUsername(event.target.value)}
        />
      </label>
      <p id="profile-username-hint" className="ui-hint">
        {t('profile.usernameHint')}
      </p>
      {error && (
        <p className="ui-error" role="alert">
          {error}
        </p>
      )}
      <div className="ui-modal-actions">
        <button type="button" className="ui-button" onClick={onDone}>
          {t('profile.cancel')}
        </button>
        <button type="submit" className="ui-button ui-button-primary" disabled={!changed || !usernameValid || busy}>
          {t('profile.save')}
        </button>
      </div>
    </form>
  );
}
