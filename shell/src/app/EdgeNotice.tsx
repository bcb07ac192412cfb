import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal, localSettings } from '@messenger/shared';

/** Spec §1: on Microsoft Edge, once, a notice that calls work best in Chrome. */
export function EdgeNotice() {
  const { t } = useTranslation('shell');
  const [open, setOpen] = useState(() => /\bEdg\//.test(navigator.userAgent) && localSettings.get('edge-notice') !== 'seen');
  if (!open) return null;
  const close = () => {
    localSettings.set('edge-notice', 'seen');
    setOpen(false);
  };
  return (
    <Modal title={t('edge.title')} onClose={close}>
      <p className="ui-modal-text">{t('edge.text')}</p>
      <div className="ui-modal-actions">
        <button type="button" className="ui-button ui-button-primary" onClick={close}>
          {t('edge.ok')}
        </button>
      </div>
    </Modal>
  );
}
