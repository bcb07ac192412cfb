import { useState } from 'react';
import { useNavigate } from '@messenger/router';
import { useTranslation } from 'react-i18next';
import { FormError, Modal, chatsApi, clampCharacters, config, errorText, useChatsStore, useNotificationsStore, useSubmit } from '@messenger/shared';
import { MemberPicker } from './MemberPicker';

/**
 * A new group (spec §5: a non-empty name of at most 60 characters and at least one member) or, for staff, a
 * secret chat (people join it later with its code).
 */
export function CreateGroupModal({ secret = false, onClose }: { secret?: boolean; onClose: () => void }) {
  const { t } = useTranslation('messenger');
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [members, setMembers] = useState<Set<number>>(new Set());
  const form = useSubmit((failure) => errorText(failure, 'messenger:groups.createError'));
  const incomplete = !name.trim() || (!secret && members.size === 0);

  const submit = form.handler(async () => {
    if (incomplete) return;
    const chat = await chatsApi.createGroup({ name: name.trim(), participants: [...members], isSecret: secret });
    useChatsStore.getState().upsert(chat);
    useNotificationsStore.getState().push({ kind: 'success', text: t('groups.created') });
    onClose();
    navigate(`/${chat.id}`);
  });

  return (
    <Modal title={secret ? t('groups.newSecretTitle') : t('groups.newTitle')} onClose={onClose}>
      <form className="msg-form" onSubmit={submit} noValidate>
        {secret && <p className="ui-hint">{t('groups.secretHint')}</p>}
        <label className="ui-field">
          <span>{t('groups.name')}</span>
          <input value={name} required onChange={(event) => setName(clampCharacters(event.target.value, config.nameMax))} />
        </label>
        {!secret && <MemberPicker chosen={members} onChange={setMembers} />}
        <FormError error={form.error} />
        <div className="ui-modal-actions">
          <button type="button" className="ui-button" onClick={onClose}>
            {t('common:actions.cancel')}
          </button>
          <button type="submit" className="ui-button ui-button-primary" disabled={form.busy || incomplete}>
            {t('groups.create')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
