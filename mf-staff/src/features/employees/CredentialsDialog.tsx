import { useTranslation } from 'react-i18next';
import { Modal, formatPhone, useNotificationsStore, useSubmit, type Credentials } from '@messenger/shared';

/** A manager's sign-in details, shown once: the admin copies them and hands them over. */
export function CredentialsDialog({ credentials, onClose }: { credentials: Credentials; onClose: () => void }) {
  const { t } = useTranslation('staff');
  const text = `${t('employees.phone')}: ${credentials.phone}\n${t('employees.password')}: ${credentials.password}\n${t('employees.extraPassword')}: ${credentials.extra_password}`;
  const copying = useSubmit(
    (failure) => (failure instanceof Error && failure.message ? failure.message : t('employees.copyFailed')),
    'toast',
  );
  const copy = copying.handler(async () => {
    await navigator.clipboard.writeText(text);
    useNotificationsStore.getState().push({ kind: 'success', text: t('employees.credentialsCopied') });
  });
  return (
    <Modal title={t('employees.credentialsTitle')} onClose={onClose}>
      <p className="ui-warning">{t('employees.credentialsOnce')}</p>
      <dl className="staff-credentials">
        <dt>{t('employees.phone')}</dt>
        <dd>{formatPhone(credentials.phone)}</dd>
        <dt>{t('employees.password')}</dt>
        <dd>
          <code>{credentials.password}</code>
        </dd>
        <dt>{t('employees.extraPassword')}</dt>
        <dd>
          <code>{credentials.extra_password}</code>
        </dd>
      </dl>
      <div className="ui-modal-actions">
        <button type="button" className="ui-button" onClick={copy}>
          {t('employees.copyCredentials')}
        </button>
        <button type="button" className="ui-button ui-button-primary" onClick={onClose}>
          {t('employees.done')}
        </button>
      </div>
    </Modal>
  );
}
