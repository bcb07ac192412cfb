import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AUTO_DELETE_INTERVALS, Modal, chatsApi, errorText, useChatsStore, useSubmit, type Chat } from '@messenger/shared';

/** "5 seconds", "1 hour", "14 days" in the given language (Intl does the words). */
export function intervalLabel(seconds: number, language: string): string {
  const [value, unit] =
    seconds % 86400 === 0 ? [seconds / 86400, 'day'] : seconds % 3600 === 0 ? [seconds / 3600, 'hour'] : seconds % 60 === 0 ? [seconds / 60, 'minute'] : [seconds, 'second'];
  return new Intl.NumberFormat(language, { style: 'unit', unit, unitDisplay: 'long' }).format(value);
}

/** The auto-delete timer of a chat: new messages disappear for everyone that long after they are sent. */
export function AutoDeleteDialog({ chat, onClose }: { chat: Chat; onClose: () => void }) {
  const { t, i18n } = useTranslation('messenger');
  const [interval, setChoice] = useState<number>(chat.interval);
  const form = useSubmit((failure) => errorText(failure, 'messenger:chat.autoDeleteFailed'), 'toast');

  const save = form.handler(async () => {
    const result = await chatsApi.setInterval(chat.id, interval);
    useChatsStore.getState().patch(chat.id, { interval: result.interval });
    onClose();
  });

  return (
    <Modal title={t('chat.autoDelete')} onClose={onClose}>
      <form className="msg-form" onSubmit={save}>
        <p className="ui-hint">{t('chat.autoDeleteHint')}</p>
        <fieldset className="msg-radio-list">
          <legend className="visually-hidden">{t('chat.autoDelete')}</legend>
          {AUTO_DELETE_INTERVALS.map((seconds) => (
            <label key={seconds} className="msg-radio">
              <input type="radio" name="interval" value={seconds} checked={interval === seconds} onChange={() => setChoice(seconds)} />
              {seconds === 0 ? t('chat.autoDeleteOff') : intervalLabel(seconds, i18n.language)}
            </label>
          ))}
        </fieldset>
        <div className="ui-modal-actions">
          <button type="button" className="ui-button" onClick={onClose}>
            {t('common:actions.cancel')}
          </button>
          <button type="submit" className="ui-button ui-button-primary" disabled={form.busy || interval === chat.interval}>
            {t('common:actions.save')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
