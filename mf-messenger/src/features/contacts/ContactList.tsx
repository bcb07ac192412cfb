import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Avatar,
  ConfirmDialog,
  Icon,
  displayName,
  errorText,
  filterContacts,
  usePhoneFormatter,
  matchesSearch,
  useAuthStore,
  useChatsStore,
  useContactsStore,
  useNotificationsStore,
  useSearchStore,
  useUsersStore,
  type Contact,
  type PublicUser,
} from '@messenger/shared';
import { useOpenPrivateChat } from './useOpenPrivateChat';

interface ContactListProps {
  onAdd: (person: { name: string; username?: string }) => void;
}

/**
 * Spec §2 contacts list: a click opens (or creates) the private chat; each row has a delete button. People met
 * in chats who are not contacts yet follow, with an add button.
 */
export function ContactList({ onAdd }: ContactListProps) {
  const formatPhone = usePhoneFormatter();
  const { t } = useTranslation('messenger');
  const contacts = useContactsStore((state) => state.contacts);
  const loaded = useContactsStore((state) => state.loaded);
  const query = useSearchStore((state) => state.query);
  const known = useKnownPeople(contacts);
  const [deleting, setDeleting] = useState<Contact | null>(null);
  const openChat = useOpenPrivateChat();

  const shown = filterContacts(contacts, query);
  const shownKnown = known.filter((person) => matchesSearch(query, person.name, person.username));

  if (!loaded) return <p className="ui-empty">{t('common:loading')}</p>;
  return (
    <>
      {shown.length === 0 && shownKnown.length === 0 && <p className="ui-empty">{query ? t('contacts.nothingFound') : t('contacts.empty')}</p>}
      {shown.length > 0 && (
        <ul className="msg-list" aria-label={t('contacts.listLabel')}>
          {shown.map((contact) => {
            const name = displayName(contact);
            return (
              <li key={contact.id} className="msg-contact">
                <button type="button" className="msg-row" title={t('contacts.open', { name })} onClick={() => void openChat(contact.id)}>
                  <Avatar name={name} path={contact.avatar} />
                  <span className="msg-row-main">
                    <span className="msg-row-name">{name}</span>
                    <span className="msg-row-preview">{contact.username ? `@${contact.username}` : formatPhone(contact.phone)}</span>
                  </span>
                </button>
                <button type="button" className="ui-icon-button" aria-label={t('contacts.delete', { name })} onClick={() => setDeleting(contact)}>
                  <Icon name="trash" />
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {shownKnown.length > 0 && (
        <section aria-label={t('contacts.knownPeople')}>
          <h2 className="msg-section-title">{t('contacts.knownPeople')}</h2>
          <ul className="msg-list">
            {shownKnown.map((person) => {
              const name = displayName(person);
              return (
                <li key={person.id} className="msg-contact">
                  <button type="button" className="msg-row" title={t('contacts.open', { name })} onClick={() => void openChat(person.id)}>
                    <Avatar name={name} path={person.avatar} />
                    <span className="msg-row-main">
                      <span className="msg-row-name">{name}</span>
                      {person.username && <span className="msg-row-preview">@{person.username}</span>}
                    </span>
                  </button>
                  {person.username && (
                    <button
                      type="button"
                      className="ui-icon-button"
                      aria-label={t('contacts.add', { name })}
                      onClick={() => onAdd({ name: person.name, username: person.username ?? undefined })}
                    >
                      +
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
        </section>
      )}
      {deleting && <DeleteContact contact={deleting} onDone={() => setDeleting(null)} />}
    </>
  );
}

/** People of my private chats who are not my contacts (spec §3 "known contacts"). */
function useKnownPeople(contacts: Contact[]): PublicUser[] {
  const me = useAuthStore((state) => state.user?.id);
  const chats = useChatsStore((state) => state.chats);
  const profiles = useUsersStore((state) => state.profiles);
  return useMemo(() => {
    const contactIds = new Set(contacts.map((contact) => contact.id));
    const ids = new Set(chats.filter((chat) => chat.chat_type === 'private').flatMap((chat) => chat.participants));
    return [...ids]
      .filter((id) => id !== me && !contactIds.has(id))
      .map((id) => profiles[id])
      .filter((person): person is PublicUser => Boolean(person && !person.deleted));
  }, [contacts, chats, profiles, me]);
}

function DeleteContact({ contact, onDone }: { contact: Contact; onDone: () => void }) {
  const { t } = useTranslation('messenger');
  const name = displayName(contact);
  const remove = async () => {
    onDone();
    try {
      await useContactsStore.getState().remove(contact.id);
      useNotificationsStore.getState().push({ kind: 'success', text: t('contacts.deleted') });
    } catch (error) {
      useNotificationsStore.getState().push({ kind: 'error', text: errorText(error, 'messenger:contacts.deleteError') });
    }
  };
  return (
    <ConfirmDialog
      title={t('contacts.deleteTitle')}
      subtitle={t('contacts.deleteSubtitle', { name })}
      approveLabel={t('contacts.deleteConfirm')}
      danger
      onApprove={() => void remove()}
      onCancel={onDone}
    />
  );
}
