import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Avatar,
  Modal,
  chatDisplay,
  forwardMessage,
  matchesSearch,
  normalizeSearch,
  useAuthStore,
  useChatsStore,
  useContactsStore,
  useNotificationsStore,
  useUsersStore,
  type ChatMessage,
} from '@messenger/shared';

/** Forward a message to one or more chats. */
export function ForwardDialog({ message, authorName, onClose }: { message: ChatMessage; authorName: string; onClose: () => void }) {
  const { t } = useTranslation('messenger');
  const me = useAuthStore((state) => state.user?.id ?? 0);
  const chats = useChatsStore((state) => state.chats);
  const contacts = useContactsStore((state) => state.contacts);
  const profiles = useUsersStore((state) => state.profiles);
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const rows = chats
    .map((chat) => ({ chat, ...chatDisplay(chat, me, contacts, profiles) }))
    .filter((row) => matchesSearch(normalizeSearch(query), row.name));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (chosen.size === 0) return;
    forwardMessage(message, [...chosen], authorName);
    useNotificationsStore.getState().push({ kind: 'success', text: t('chat.forwarded', { count: chosen.size }) });
    onClose();
  };

  return (
    <Modal title={t('chat.forwardTitle')} onClose={onClose}>
      <form className="msg-form" onSubmit={submit}>
        <label className="ui-field">
          <span>{t('chat.forwardSearch')}</span>
          <input type="search" value={query} onChange={(event) => setQuery(event.target.value)} />
        </label>
        <fieldset className="msg-pick-list">
          <legend className="visually-hidden">{t('chat.forwardTo')}</legend>
          {rows.map(({ chat, name, avatar }) => (
            <label key={chat.id} className="msg-pick-row">
              <input
                type="checkbox"
                checked={chosen.has(chat.id)}
                onChange={(event) => {
                  const next = new Set(chosen);
                  if (event.target.checked) next.add(chat.id);
                  else next.delete(chat.id);
                  setChosen(next);
                }}
              />
              <Avatar name={name} path={avatar} size={32} group={chat.chat_type === 'group'} />
              <span>{name}</span>
            </label>
          ))}
        </fieldset>
        <div className="ui-modal-actions">
          <button type="button" className="ui-button" onClick={onClose}>
            {t('common:actions.cancel')}
          </button>
          <button type="submit" className="ui-button ui-button-primary" disabled={chosen.size === 0}>
            {t('chat.forwardSubmit', { count: chosen.size })}
          </button>
        </div>
      </form>
    </Modal>
  );
}
