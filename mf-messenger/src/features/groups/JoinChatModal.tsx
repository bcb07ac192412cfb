import { useState, type FormEvent } from 'react';
import { useNavigate } from '@messenger/router';
import { useTranslation } from 'react-i18next';
import { Modal, chatsApi, config, errorText, useChatsStore, useNotificationsStore } from '@messenger/shared';

/** Join a (secret) chat with its code: `C-` and 10 letters or digits (spec §5), checked here and on the server. */
export function JoinChatModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('messenger');
  const navigate = useNavigate();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const clean = code.trim();
  const valid = config.joinCodePattern.test(clean);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!valid || busy) return;
    setBusy(true);
    setError(null);
    try {
      const chat = await chatsApi.join(clean);
      useChatsStore.getState().upsert(chat);
      useNotificationsStore.getState().push({ kind: 'success', text: t('groups.joined') });
      onClose();
      navigate(`/${chat.id}`);
    } catch (failure) {
      setError(errorText(failure, 'messenger:groups.joinError'));
      setBusy(false);
    }
  };

  return (
    <Modal title={t('groups.joinTitle')} onClose={onClose}>
      <form className="msg-form" onSubmit={submit} noValidate>
        <label className="ui-field">
          <span>{t('groups.code')}</span>
          <input
            value={code}
            maxLength={12}
            placeholder="C-XXXXXXXXXX"
            autoComplete="off"
            spellCheck={false}
            aria-invalid={clean.length > 0 && !valid}
            aria-describedby="join-code-hint"
            onChange={(event) => {
              setCode(event.target.value);
              setError(null);
            }}
          />
        </label>
        <p id="join-code-hint" className={clean.length > 0 && !valid ? 'ui-error' : 'ui-hint'}>
          {t('groups.codeHint')}
        </p>
        {error && (
          <p className="ui-error" role="alert">
            {error}
          </p>
        )}
        <div className="ui-modal-actions">
          <button type="button" className="ui-button" onClick={onClose}>
            {t('common:actions.cancel')}
          </button>
          <button type="submit" className="ui-button ui-button-primary" disabled={!valid || busy}>
            {t('groups.join')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
