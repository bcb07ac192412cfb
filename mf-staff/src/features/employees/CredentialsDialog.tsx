import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal, usePhoneFormatter, useNotificationsStore, useSubmit, type Credentials } from '@messenger/shared';

/** A manager's sign-in details, shown once: the admin copies them and hands them over. */
export function CredentialsDialog({ credentials, onClose }: { credentials: Credentials; onClose: () => void }) {
  const formatPhone = usePhoneFormatter();
  const { t } = useTranslation('staff');
  // A password that was not changed comes as null: it is not shown (nor copied), the person keeps theirs.
  const rows = [
    { label: t('employees.phone'), value: credentials.phone, shown: credentials.phone && formatPhone(credentials.phone) },
    { label: t('employees.password'), value: credentials.password, shown: credentials.password && <code>{credentials.password}</code> },
    { label: t('employees.extraPassword'), value: credentials.extra_password, shown: credentials.extra_password && <code>{credentials.extra_password}</code> },
  ].filter((row) => row.value !== null);
  const text = rows.map((row) => `${row.label}: ${row.value}`).join('\n');
  const copying = useSubmit(
    (failure) => (failure instanceof Error && failure.message ? failure.message : t('employees.copyFailed')),
    'toast',
  );
  const copy = copying.handler(async () => {
    await navigator.clipboard.writeText(text);
    useNotificationsStore.getState().push({ kind: 'success', text: t('employees.credentialsCopied') });
  });
  return (
    // A stray click beside it would lose passwords that already replaced the old ones: only Done, Escape or the
    // close icon close it.
    <Modal title={t('employees.credentialsTitle')} onClose={onClose} closeOnOutsideClick={false}>
      <p className="ui-warning">{t('employees.credentialsOnce')}</p>
      <dl className="staff-credentials">
        {rows.map((row) => (
          <Fragment key={row.label}>
            <dt>{row.label}</dt>
            <dd>{row.shown}</dd>
          </Fragment>
        ))}
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
