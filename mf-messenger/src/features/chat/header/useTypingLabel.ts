import { useTranslation } from 'react-i18next';
import { displayName, useContactsStore, useTypingStore, useUsersStore } from '@messenger/shared';

/**
 * "Anna is typing…", "Anna and Boris are typing…", "Anna and 2 others are typing…" for a chat, or null when
 * nobody is. Each typist is named as everywhere else: my contact's name for them first, then their profile.
 */
export function useTypingLabel(chatId: number): string | null {
  const { t } = useTranslation('messenger');
  const typists = useTypingStore((state) => state.byChat[chatId]);
  const contacts = useContactsStore((state) => state.contacts);
  const profiles = useUsersStore((state) => state.profiles);
  if (!typists || typists.length === 0) return null;
  const names = typists.map((typist) => displayName(contacts.find((contact) => contact.id === typist.id), profiles[typist.id], typist));
  if (names.length === 1) return t('typing.one', { name: names[0] });
  if (names.length === 2) return t('typing.two', { first: names[0], second: names[1] });
  return t('typing.many', { name: names[0], count: names.length - 1 });
}
