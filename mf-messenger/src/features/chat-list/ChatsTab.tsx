import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Role, unlessGuest, useAuthStore } from '@messenger/shared';
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
      <ChatList />
      {dialog === 'contact' && <AddContactModal onClose={() => setDialog(null)} />}
      {dialog === 'group' && <CreateGroupModal onClose={() => setDialog(null)} />}
      {dialog === 'secret' && <CreateGroupModal secret onClose={() => setDialog(null)} />}
      {dialog === 'join' && <JoinChatModal onClose={() => setDialog(null)} />}
    </div>
  );
}
