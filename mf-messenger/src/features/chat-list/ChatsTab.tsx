import { useTranslation } from 'react-i18next';
import { useEffect, useState } from 'react';
import { Role, errorText, unlessGuest, useAuthStore, useNotificationsStore } from '@messenger/shared';
import { useAdminChatsStore } from './adminChatsStore';
import { AddContactModal } from '../contacts/AddContactModal';
import { CreateGroupModal } from '../groups/CreateGroupModal';
import { JoinChatModal } from '../groups/JoinChatModal';
import { ChatList } from './ChatList';

type Dialog = 'contact' | 'group' | 'secret' | 'join' | null;

/** The Chats tab: new contact, new group, secret chats (create for staff, join for all), and the list. */
export function ChatsTab() {
  const { t } = useTranslation('messenger');
  const user = useAuthStore((state) => state.user);
  const guest = user?.temporary ?? false;
  const [dialog, setDialog] = useState<Dialog>(null);
  const open = (next: Dialog) => unlessGuest(guest, () => setDialog(next));
  const isAdmin = (user?.role ?? 0) >= Role.admin;
  const showSecret = useAdminChatsStore((state) => state.showSecret);
  const setShowSecret = useAdminChatsStore((state) => state.setShowSecret);

  useEffect(() => {
    if (!isAdmin || !showSecret) return;
    useAdminChatsStore
      .getState()
      .load()
      .catch((error: unknown) => useNotificationsStore.getState().push({ kind: 'error', text: errorText(error, 'messenger:chats.loadFailed') }));
  }, [isAdmin, showSecret]);
  return (
    <div className="msg-tab">
      <div className="msg-tab-actions">
        <button type="button" className="ui-button" onClick={() => open('contact')}>
          {t('contacts.newContact')}
        </button>
        <button type="button" className="ui-button" onClick={() => open('group')}>
          {t('groups.newGroup')}
        </button>
        {(user?.role ?? 0) >= Role.manager && (
          <button type="button" className="ui-button" onClick={() => open('secret')}>
            {t('groups.newSecret')}
          </button>
        )}
        <button type="button" className="ui-button" onClick={() => open('join')}>
          {t('groups.joinSecret')}
        </button>
      </div>
      {isAdmin && (
        <label className="msg-switch msg-secret-toggle">
          <span>{t('chats.showSecret')}</span>
          <input type="checkbox" role="switch" checked={showSecret} onChange={(event) => setShowSecret(event.target.checked)} />
        </label>
      )}
      <ChatList />
      {dialog === 'contact' && <AddContactModal onClose={() => setDialog(null)} />}
      {dialog === 'group' && <CreateGroupModal onClose={() => setDialog(null)} />}
      {dialog === 'secret' && <CreateGroupModal secret onClose={() => setDialog(null)} />}
      {dialog === 'join' && <JoinChatModal onClose={() => setDialog(null)} />}
    </div>
  );
}
