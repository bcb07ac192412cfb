import { useTranslation } from 'react-i18next';
import { Modal } from './Modal';

interface ConfirmDialogProps {
  title: string;
  subtitle?: string;
  approveLabel: string;
  onApprove: () => void;
  onCancel: () => void;
  danger?: boolean;
}

/** Spec §2 confirmation popup: title, subtitle, approve, cancel. */
export function ConfirmDialog({ title, subtitle, approveLabel, onApprove, onCancel, danger = false }: ConfirmDialogProps) {
  const { t } = useTranslation('common');
  return (
    <Modal title={title} onClose={onCancel} closeIcon={false}>
      {subtitle && <p className="ui-modal-text">{subtitle}</p>}
      <div className="ui-modal-actions">
        <button type="button" className="ui-button" onClick={onCancel}>
          {t('actions.cancel')}
        </button>
        <button type="button" className={danger ? 'ui-button ui-button-danger' : 'ui-button ui-button-primary'} onClick={onApprove}>
          {approveLabel}
        </button>
      </div>
    </Modal>
  );
}
