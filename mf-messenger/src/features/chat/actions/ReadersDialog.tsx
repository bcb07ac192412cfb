import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar, Modal, chatsApi, displayName, errorText, useContactsStore, type Chat, type PublicUser } from '@messenger/shared';
import { useChatUiStore } from '../chatUiStore';

/**
 * Read receipts in a group: who has read one of my messages, asked of the server when the dialog opens (only the
 * sender may ask). Lives beside the list, like the delete confirmation, so a row leaving the rendered range keeps it.
 */
export function ReadersDialog({ chat }: { chat: Chat }) {
  const message = useChatUiStore((state) => state.showingReaders);
  if (message?.chat_id !== chat.id) return null;
  // Keyed by message: another message's readers start from a fresh (loading) state.
  return <Readers key={message.id} messageId={message.id} />;
}

function Readers({ messageId }: { messageId: number }) {
  const { t } = useTranslation('messenger');
  const contacts = useContactsStore((state) => state.contacts);
  const [readers, setReaders] = useState<PublicUser[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    chatsApi.readers(messageId).then(
      (list) => current && setReaders(list),
      (error: unknown) => current && setFailure(errorText(error, 'messenger:chat.readersFailed')),
    );
    return () => {
      current = false;
    };
  }, [messageId]);

  const close = () => useChatUiStore.getState().showReaders(null);
  const title = readers === null ? t('chat.readBy') : t('chat.readByCount', { count: readers.length });
  return (
    <Modal title={title} onClose={close}>
      {failure && <p role="alert">{failure}</p>}
      {!failure && readers === null && <p role="status">{t('common:loading')}</p>}
      {readers?.length === 0 && <p>{t('chat.readByNobody')}</p>}
      {readers && readers.length > 0 && (
        <ul className="msg-list" aria-label={title}>
          {readers.map((reader) => {
            const name = reader.deleted ? t('chat.deletedAccount') : displayName(contacts.find((contact) => contact.id === reader.id), reader);
            return (
              <li key={reader.id} className="msg-contact">
                <span className="msg-row">
                  <Avatar name={name} path={reader.avatar} size={36} />
                  <span className="msg-row-main">
                    <span className="msg-row-name">{name}</span>
                  </span>
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </Modal>
  );
}
