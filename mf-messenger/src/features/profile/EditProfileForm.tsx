import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ApiError,
  FormError,
  clampCharacters,
  cleanUsername,
  config,
  errorText,
  isValidUsername,
  useAuthStore,
  useNotificationsStore,
  useSubmit,
  userApi,
  type Me,
} from '@messenger/shared';

export function EditProfileForm({ user, onDone }: { user: Me; onDone: () => void }) {
  const { t } = useTranslation('messenger');
  const [name, setName] = useState(user.name);
  const [username, setUsername] = useState(user.username ?? '');
  const form = useSubmit((failure) =>
    failure instanceof ApiError && failure.status === 409 ? t('profile.usernameTaken') : errorText(failure, 'messenger:profile.saveError'),
  );
  const cleaned = cleanUsername(username);
  const usernameValid = isValidUsername(cleaned);
  const changed = name.trim() !== user.name || cleaned !== (user.username ?? '');

  const save = form.handler(async () => {
    if (!changed || !usernameValid) return;
    const updated = await userApi.edit({ name: name.trim(), username: cleaned || null });
    useAuthStore.getState().setUser(updated);
    useNotificationsStore.getState().push({ kind: 'success', text: t('profile.saved') });
    onDone();
  });

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
      <FormError error={form.error} />
      <div className="ui-modal-actions">
        <button type="button" className="ui-button" onClick={onDone}>
          {t('profile.cancel')}
        </button>
        <button type="submit" className="ui-button ui-button-primary" disabled={!changed || !usernameValid || form.busy}>
          {t('profile.save')}
        </button>
      </div>
    </form>
  );
}
