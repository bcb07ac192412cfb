import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Avatar,
  ConfirmDialog,
  Modal,
  chatsApi,
  clampCharacters,
  config,
  displayName,
  errorText,
  useAuthStore,
  useChatsStore,
  useContactsStore,
  useNotificationsStore,
  useSubmit,
  useUsersStore,
  type Chat,
} from '@messenger/shared';
import { AvatarPicker } from '../avatar/AvatarPicker';
import { useOpenPrivateChat } from '../contacts/useOpenPrivateChat';
import { MemberPicker } from './MemberPicker';

/** After saving or removing a member, the chats and contacts are reloaded (spec §4). */
async function refreshLists(): Promise<void> {
  await Promise.all([useChatsStore.getState().load(), useContactsStore.getState().load()]).catch(() => undefined);
}

/**
 * Spec §2 group panel. The owner renames it (Save only when something changed), changes its picture, adds and
 * removes members and sees the invite code; everyone else sees it read-only. Choosing another member closes the
 * panel and opens the direct chat with them.
 */
export function GroupPanel({ chat, onClose }: { chat: Chat; onClose: () => void }) {
  const { t } = useTranslation('messenger');
  const self = useAuthStore((state) => state.user);
  const me = self?.id ?? 0;
  const contacts = useContactsStore((state) => state.contacts);
  const profiles = useUsersStore((state) => state.profiles);
  const openPrivateChat = useOpenPrivateChat();
  const isOwner = chat.owner_id === me;
  const [name, setName] = useState(chat.name);
  const [avatar, setAvatar] = useState<string | null>(chat.avatar);
  // What the form started from. A change made elsewhere (another tab, another owner) shows in a field not edited
  // here, so Save neither lights up for nothing nor sends the old value back over it.
  const [shown, setShown] = useState({ name: chat.name, avatar: chat.avatar });
  if (shown.name !== chat.name || shown.avatar !== chat.avatar) {
    if (name === shown.name) setName(chat.name);
    if (avatar === shown.avatar) setAvatar(chat.avatar);
    setShown({ name: chat.name, avatar: chat.avatar });
  }
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<{ id: number; name: string } | null>(null);
  const changed = name.trim() !== chat.name || avatar !== chat.avatar;
  const saving = useSubmit((failure) => errorText(failure, 'messenger:groupModal.saveError'), 'toast');
  const removal = useSubmit((failure) => errorText(failure, 'messenger:groupModal.deleteError'), 'toast');

  // Owner first, then the others as they joined.
  const members = [...chat.participants].sort((a, b) => Number(b === chat.owner_id) - Number(a === chat.owner_id));

  const save = saving.handler(async () => {
    if (!isOwner || !changed || !name.trim()) return;
    // Only what was changed here: the rest may have changed elsewhere meanwhile.
    const updated = await chatsApi.edit(chat.id, {
      ...(name.trim() !== chat.name ? { name: name.trim() } : {}),
      ...(avatar !== chat.avatar ? { avatar } : {}),
    });
    useChatsStore.getState().upsert(updated);
    useNotificationsStore.getState().push({ kind: 'success', text: t('groupModal.saveSuccess') });
    await refreshLists();
  });

  const remove = (member: { id: number; name: string }) => {
    setRemoving(null);
    void removal.run(async () => {
      const updated = await chatsApi.manageParticipants(chat.id, [{ add: false, participants: [member.id] }]);
      useChatsStore.getState().upsert(updated);
      useNotificationsStore.getState().push({ kind: 'success', text: t('groupModal.deleteSuccess', { name: member.name }) });
      await refreshLists();
    });
  };

  const copyCode = async () => {
    try {
      await navigator.clipboard.writeText(chat.invite_code ?? '');
      useNotificationsStore.getState().push({ kind: 'success', text: t('groups.codeCopied') });
    } catch (error) {
      useNotificationsStore.getState().push({ kind: 'error', text: error instanceof Error && error.message ? error.message : t('chat.copyFailed') });
    }
  };

  return (
    <aside className="msg-panel" aria-labelledby="group-panel-title">
      <header className="msg-panel-header">
        <h2 id="group-panel-title">{chat.is_secret ? t('groups.secretInfo') : t('groups.info')}</h2>
        <button type="button" className="ui-icon-button" aria-label={t('common:actions.close')} onClick={onClose}>
          ×
        </button>
      </header>
      <form className="msg-form msg-panel-section" onSubmit={save}>
        <div className="msg-panel-avatar">
          <Avatar name={name || chat.name} path={avatar} size={88} group />
          {isOwner && <AvatarPicker label={t('groups.changePicture')} onSaved={(path) => setAvatar(path)} />}
        </div>
        {isOwner ? (
          <>
            <label className="ui-field">
              <span>{t('groups.name')}</span>
              <input value={name} onChange={(event) => setName(clampCharacters(event.target.value, config.nameMax))} />
            </label>
            <button type="submit" className="ui-button ui-button-primary" disabled={!changed || !name.trim() || saving.busy}>
              {t('common:actions.save')}
            </button>
          </>
        ) : (
          <p className="msg-panel-title">{chat.name}</p>
        )}
      </form>
      {isOwner && chat.invite_code && (
        <section className="msg-panel-section" aria-label={t('groups.inviteCode')}>
          <span className="ui-hint">{t('groups.inviteCode')}</span>
          <code className="msg-code">{chat.invite_code}</code>
          <button type="button" className="ui-button" onClick={() => void copyCode()}>
            {t('groups.copyCode')}
          </button>
        </section>
      )}
      <section className="msg-panel-section" aria-labelledby="group-members-title">
        <div className="msg-panel-row">
          <h3 id="group-members-title">{t('chat.members', { count: chat.participants.length })}</h3>
          {isOwner && (
            <button type="button" className="ui-button" onClick={() => setAdding(true)}>
              {t('groups.addMembers')}
            </button>
          )}
        </div>
        <ul className="msg-list" aria-label={t('groups.members')}>
          {members.map((id) => {
            const memberName = id === me ? t('groups.you') : displayName(contacts.find((contact) => contact.id === id), profiles[id]);
            const avatarName = id === me ? displayName(self) : memberName;
            return (
              <li key={id} className="msg-contact">
                <button
                  type="button"
                  className="msg-row"
                  disabled={id === me}
                  title={id === me ? undefined : t('contacts.open', { name: memberName })}
                  onClick={() => {
                    onClose();
                    void openPrivateChat(id);
                  }}
                >
                  <Avatar name={avatarName} path={id === me ? self?.avatar : profiles[id]?.avatar} size={36} />
                  <span className="msg-row-main">
                    <span className="msg-row-name">{memberName}</span>
                    {id === chat.owner_id && <span className="msg-row-preview">{t('groups.owner')}</span>}
                  </span>
                </button>
                {isOwner && id !== me && (
                  // Off while a removal is on its way: one at a time, so a second one is never silently refused.
                  <button
                    type="button"
                    className="ui-icon-button"
                    aria-label={t('groups.remove', { name: memberName })}
                    disabled={removal.busy}
                    onClick={() => setRemoving({ id, name: memberName })}
                  >
                    ×
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      </section>
      {adding && <AddMembersModal chat={chat} onClose={() => setAdding(false)} />}
      {removing && (
        <ConfirmDialog
          title={t('groups.removeTitle')}
          subtitle={t('groups.removeSubtitle', { name: removing.name })}
          approveLabel={t('groups.removeConfirm')}
          danger
          onApprove={() => remove(removing)}
          onCancel={() => setRemoving(null)}
        />
      )}
    </aside>
  );
}

/** Spec §5: the members modal needs at least one person. */
function AddMembersModal({ chat, onClose }: { chat: Chat; onClose: () => void }) {
  const { t } = useTranslation('messenger');
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const form = useSubmit((failure) => errorText(failure, 'messenger:groupModal.saveError'), 'toast');
  const submit = form.handler(async () => {
    if (chosen.size === 0) return;
    const updated = await chatsApi.manageParticipants(chat.id, [{ add: true, participants: [...chosen] }]);
    useChatsStore.getState().upsert(updated);
    useNotificationsStore.getState().push({ kind: 'success', text: t('groups.membersUpdated') });
    await refreshLists();
    onClose();
  });
  return (
    <Modal title={t('groups.addMembers')} onClose={onClose}>
      <form className="msg-form" onSubmit={submit}>
        <MemberPicker chosen={chosen} onChange={setChosen} exclude={chat.participants} />
        <div className="ui-modal-actions">
          <button type="button" className="ui-button" onClick={onClose}>
            {t('common:actions.cancel')}
          </button>
          <button type="submit" className="ui-button ui-button-primary" disabled={form.busy || chosen.size === 0}>
            {t('groups.add')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
