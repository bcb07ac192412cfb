import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError, Modal, errorText, useAuthStore, useNotificationsStore, useSubmit, userApi } from '@messenger/shared';

const MIN_LENGTH = 8;

/** Staff change their password and extra (cloud) password, giving the current one (`POST /api/user/password`). */
export function ChangePasswordDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('messenger');
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [extra, setExtra] = useState('');
  const form = useSubmit((failure) => errorText(failure, 'messenger:profile.passwordError'));
  const ready = current.length > 0 && password.length >= MIN_LENGTH && extra.length >= MIN_LENGTH && extra !== password;

  const submit = form.handler(async () => {
    if (!ready) return;
    useAuthStore.getState().setUser(await userApi.setPasswords({ current_password: current, password, extra_password: extra }));
    useNotificationsStore.getState().push({ kind: 'success', text: t('profile.passwordChanged') });
    onClose();
  });

  return (
    <Modal title={t('profile.changePassword')} onClose={onClose}>
      <form className="ui-form" onSubmit={submit} noValidate>
        <label className="ui-field">
          <span>{t('profile.currentPassword')}</span>
          <input type="password" autoComplete="current-password" value={current} onChange={(event) => setCurrent(event.target.value)} />
        </label>
        <label className="ui-field">
          <span>{t('profile.newPassword')}</span>
          <input type="password" autoComplete="new-password" value={password} onChange={(event) => setPassword(event.target.value)} />
        </label>
        <label className="ui-field">
          <span>{t('profile.newExtraPassword')}</span>
          <input type="password" autoComplete="off" value={extra} onChange={(event) => setExtra(event.target.value)} />
        </label>
        <p className="ui-hint">{t('profile.passwordRules', { count: MIN_LENGTH })}</p>
        <FormError error={form.error} />
        <div className="ui-modal-actions">
          <button type="button" className="ui-button" onClick={onClose}>
            {t('common:actions.cancel')}
          </button>
          <button type="submit" className="ui-button ui-button-primary" disabled={!ready || form.busy}>
            {t('common:actions.save')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
