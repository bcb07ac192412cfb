import { useTranslation } from 'react-i18next';
import {
  chatsApi,
  displayName,
  errorText,
  reactionName,
  useAuthStore,
  useContactsStore,
  useNotificationsStore,
  useUsersStore,
  type ChatMessage,
} from '@messenger/shared';
import { useIsObserver } from '../observer';

/** The emoji I gave a message, if any. */
export function myReaction(message: ChatMessage, myId: number | undefined): string | undefined {
  return message.reactions.find((reaction) => myId !== undefined && reaction.user_ids.includes(myId))?.emoji;
}

/**
 * Gives my reaction to a message, or takes it back when it is the one I already gave (one per person: another
 * replaces mine). The message changes when the `message-reactions` event comes — here as everywhere — so an answer
 * overtaken by someone else's reaction cannot put an older list back.
 */
export async function toggleReaction(message: ChatMessage, emoji: string, myId: number | undefined): Promise<void> {
  try {
    await chatsApi.react(message.id, myReaction(message, myId) === emoji ? null : emoji);
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
            // Still focusable when reacting is not possible: the label says who reacted.
            aria-disabled={!canReact}
            onClick={() => {
              if (canReact) void toggleReaction(message, reaction.emoji, me);
            }}
          >
            <span aria-hidden="true">{reaction.emoji}</span> {reaction.user_ids.length}
          </button>
        );
      })}
    </div>
  );
}
