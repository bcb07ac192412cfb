import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AddContactModal } from './AddContactModal';
import { ContactList } from './ContactList';

/** The Contacts tab: New contact and the list. */
export function ContactsTab() {
  const { t } = useTranslation('messenger');
  const [adding, setAdding] = useState<null | { name?: string; username?: string }>(null);
  return (
    <div className="msg-tab">
      <div className="msg-tab-actions">
        <button type="button" className="ui-button" onClick={() => setAdding({})}>
          {t('contacts.newContact')}
        </button>
      </div>
      <ContactList onAdd={(person) => setAdding(person)} />
      {adding && <AddContactModal initial={adding} onClose={() => setAdding(null)} />}
    </div>
  );
}
