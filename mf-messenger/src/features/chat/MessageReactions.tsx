import { useTranslation } from 'react-i18next';
import {
  chatsApi,
  displayName,
  errorText,
  reactionName,
  useAuthStore,
  useContactsStore,
  useMessagesStore,
  useNotificationsStore,
  useUsersStore,
  type ChatMessage,
} from '@messenger/shared';
import { useIsObserver } from './observer';

/**
 * Gives my reaction to a message, or takes it back when it is the one I already gave (one per person: another
 * replaces mine). The answer updates the message at once; the event does the same everywhere else.
 */
export async function toggleReaction(message: ChatMessage, emoji: string, myId: number | undefined): Promise<void> {
  const mine = message.reactions.find((reaction) => myId !== undefined && reaction.user_ids.includes(myId));
  try {
    const reactions = await chatsApi.react(message.id, mine?.emoji === emoji ? null : emoji);
    useMessagesStore.getState().reacted(message.chat_id, message.id, reactions);
  } catch (error) {
    useNotificationsStore.getState().push({ kind: 'error', text: errorText(error, 'messenger:reactions.failed') });
  }
}

/** Under a message: each emoji given to it with how many gave it; who, on hover and for screen readers. */
export function MessageReactions({ message }: { message: ChatMessage }) {
  const { t } = useTranslation('messenger');
  // Whoever may write here may react; an observer (an admin reading a secret group) only sees them.
  const canReact = !useIsObserver() && message.state === 'sent';
  const me = useAuthStore((state) => state.user?.id);
  const contacts = useContactsStore((state) => state.contacts);
  const profiles = useUsersStore((state) => state.profiles);
  if (message.reactions.length === 0) return null;
  const nameOf = (userId: number) =>
    userId === me ? t('groups.you') : displayName(contacts.find((contact) => contact.id === userId), profiles[userId]);
  return (
    <div className="msg-reactions" role="group" aria-label={t('reactions.title')}>
      {message.reactions.map((reaction) => {
        const key = reactionName(reaction.emoji);
        const label = t('reactions.summary', {
          name: key ? t(key) : reaction.emoji,
          count: reaction.user_ids.length,
          people: reaction.user_ids.map(nameOf).join(', '),
        });
        const mine = me !== undefined && reaction.user_ids.includes(me);
        return (
          <button
            key={reaction.emoji}
            type="button"
            className={mine ? 'msg-reaction msg-reaction-mine' : 'msg-reaction'}
            aria-label={label}
            title={label}
            aria-pressed={mine}
            disabled={!canReact}
            onClick={() => void toggleReaction(message, reaction.emoji, me)}
          >
            <span aria-hidden="true">{reaction.emoji}</span> {reaction.user_ids.length}
          </button>
        );
      })}
    </div>
  );
}
