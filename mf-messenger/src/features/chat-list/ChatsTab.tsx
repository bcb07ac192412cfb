import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AddContactModal } from '../contacts/AddContactModal';
import { ChatList } from './ChatList';

/** The Chats tab: the New contact action and the chat list. */
export function ChatsTab() {
  const { t } = useTranslation('messenger');
  const [adding, setAdding] = useState(false);
  return (
    <div className="msg-tab">
      <div className="msg-tab-actions">
        <button type="button" className="ui-button" onClick={() => setAdding(true)}>
          {t('contacts.newContact')}
        </button>
      </div>
      <ChatList />
      {adding && <AddContactModal onClose={() => setAdding(false)} />}
    </div>
  );
}
