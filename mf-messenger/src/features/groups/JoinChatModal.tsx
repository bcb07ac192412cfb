import { useState } from 'react';
import { useNavigate } from '@messenger/router';
import { useTranslation } from 'react-i18next';
import { FormError, Modal, chatsApi, config, errorText, useChatsStore, useNotificationsStore, useSubmit, useUsersStore } from '@messenger/shared';

/** Join a (secret) chat with its code: `C-` and 10 letters or digits (spec §5), checked here and on the server. */
export function JoinChatModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('messenger');
  const navigate = useNavigate();
  const [code, setCode] = useState('');
  const form = useSubmit((failure) => errorText(failure, 'messenger:groups.joinError'));
  const clean = code.trim();
  const valid = config.joinCodePattern.test(clean);

  const submit = form.handler(async () => {
    if (!valid) return;
    const chat = await chatsApi.join(clean);
    useChatsStore.getState().upsert(chat);
    // Its members' names: the chat-created event that would fetch them finds the chat known already.
    void useUsersStore.getState().ensure(chat.participants);
    useNotificationsStore.getState().push({ kind: 'success', text: t('groups.joined') });
    onClose();
    navigate(`/${chat.id}`);
  });

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
              form.clearError();
            }}
          />
        </label>
        <p id="join-code-hint" className={clean.length > 0 && !valid ? 'ui-error' : 'ui-hint'}>
          {t('groups.codeHint')}
        </p>
        <FormError error={form.error} />
        <div className="ui-modal-actions">
          <button type="button" className="ui-button" onClick={onClose}>
            {t('common:actions.cancel')}
          </button>
          <button type="submit" className="ui-button ui-button-primary" disabled={!valid || form.busy}>
            {t('groups.join')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
