import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Icon,
  REACTIONS,
  Role,
  canEdit,
  discardUnsent,
  moveFocusByArrows,
  retrySend,
  useAuthStore,
  useNotificationsStore,
  type Chat,
  type ChatMessage,
} from '@messenger/shared';
import { useChatUiStore } from '../chatUiStore';
import { SaveAsLink } from '../messages/SaveAsLink';
import { myReaction, toggleReaction } from '../messages/MessageReactions';
import { useIsObserver } from '../observer';

interface MessageActionsProps {
  message: ChatMessage;
  chat: Chat;
  own: boolean;
  senderName: string;
  /** Where a right click opened the menu; null when closed. */
  position: { x: number; y: number } | null;
  onOpen: (position: { x: number; y: number }) => void;
  onClose: () => void;
}

const MENU_ITEMS = '[role="menuitem"], [role="menuitemcheckbox"]';

/** Who may delete a message: its sender, the group's owner, and admins in secret groups (the server checks too). */
function canDelete(message: ChatMessage, chat: Chat, me: { id: number; role: number } | null): boolean {
  if (!me) return false;
  return message.sender_id === me.id || (chat.chat_type === 'group' && chat.owner_id === me.id) || (chat.is_secret && me.role >= Role.admin);
}

/** A message's actions: a reaction, reply, forward, edit (my recent texts), who read it (my messages in groups), copy, save as, delete — or, for one that was not sent, retry and discard. */
export function MessageActions({ message, chat, own, senderName, position, onOpen, onClose }: MessageActionsProps) {
  const { t } = useTranslation('messenger');
  const me = useAuthStore((state) => state.user);
  const setReplyTo = useChatUiStore((state) => state.setReplyTo);
  const menuId = useId();
  const menu = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const observer = useIsObserver();
  const sent = message.state === 'sent';

  useEffect(() => {
    if (!position) return;
    menu.current?.querySelector<HTMLElement>(MENU_ITEMS)?.focus();
    const close = (event: Event) => {
      if (event instanceof KeyboardEvent && event.key !== 'Escape') return;
      if (event instanceof MouseEvent && menu.current?.contains(event.target as Node)) return;
      onClose();
      if (event instanceof KeyboardEvent) trigger.current?.focus();
    };
    document.addEventListener('mousedown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('mousedown', close);
      document.removeEventListener('keydown', close);
    };
  }, [position, onClose]);

  const copy = async () => {
    onClose();
    try {
      await navigator.clipboard.writeText(message.text || message.file?.name || '');
      useNotificationsStore.getState().push({ kind: 'success', text: t('chat.copied') });
    } catch (error) {
      const text = error instanceof Error && error.message ? error.message : t('chat.copyFailed');
      useNotificationsStore.getState().push({ kind: 'error', text });
    }
  };

  const item = (label: string, action: () => void) => (
    <button
      type="button"
      role="menuitem"
      tabIndex={-1}
      className="msg-menu-item"
      onClick={() => {
        onClose();
        action();
      }}
    >
      {label}
    </button>
  );

  return (
    <>
      <button
        ref={trigger}
        type="button"
        className="msg-actions-trigger"
        aria-label={t('chat.actions')}
        aria-haspopup="menu"
        aria-expanded={Boolean(position)}
        aria-controls={position ? menuId : undefined}
        onClick={(event) => {
          const box = event.currentTarget.getBoundingClientRect();
          if (position) onClose();
          else onOpen({ x: box.left, y: box.bottom });
        }}
      >
        <Icon name="more" />
      </button>
      {position && (
        <div
          ref={menu}
          id={menuId}
          role="menu"
          aria-label={t('chat.actions')}
          tabIndex={-1}
          // Arrows move between the items (the reactions row too), Home and End to the ends; Tab closes the menu
          // and returns to its button, as Escape does.
          onKeyDown={(event) => {
            if (event.key === 'Tab') {
              event.preventDefault();
              onClose();
              trigger.current?.focus();
            } else moveFocusByArrows(event, MENU_ITEMS, 'both');
          }}
          className={own ? 'msg-menu msg-menu-own' : 'msg-menu'}
          style={{ left: Math.min(position.x, window.innerWidth - 200), top: Math.min(position.y, window.innerHeight - 240) }}
        >
          {sent && !observer && message.type !== 'call' && (
            <div className="msg-menu-reactions">
              {REACTIONS.map((reaction) => (
                <button
                  key={reaction.emoji}
                  type="button"
                  role="menuitemcheckbox"
                  tabIndex={-1}
                  aria-checked={myReaction(message, me?.id) === reaction.emoji}
                  className="msg-menu-reaction"
                  aria-label={t('reactions.reactWith', { name: t(reaction.name) })}
                  title={t(reaction.name)}
                  onClick={() => {
                    onClose();
                    void toggleReaction(message, reaction.emoji, me?.id);
                  }}
                >
                  {reaction.emoji}
                </button>
              ))}
            </div>
          )}
          {sent && !observer && item(t('chat.reply'), () => setReplyTo(chat.id, message))}
          {sent && !observer && message.type !== 'call' && item(t('chat.forward'), () => useChatUiStore.getState().askForward({ message, authorName: senderName }))}
          {!observer && canEdit(message, me?.id) && item(t('chat.edit'), () => useChatUiStore.getState().setEditing(chat.id, message))}
          {sent && own && chat.chat_type === 'group' && item(t('chat.readBy'), () => useChatUiStore.getState().showReaders(message))}
          {message.type !== 'call' && (message.text || message.file) && item(t('chat.copy'), () => void copy())}
          {sent && message.file && <SaveAsLink path={message.file.path} name={message.file.name} asMenuItem onDone={onClose} />}
          {message.state === 'failed' && item(t('chat.retry'), () => retrySend(message))}
          {!sent &&
            item(t('chat.discard'), () => {
              // Already on its way: it may be delivered, so it is not taken back (it shows as sent or failed soon).
              if (!discardUnsent(message)) useNotificationsStore.getState().push({ kind: 'error', text: t('chat.discardTooLate') });
            })}
          {sent && canDelete(message, chat, me) && item(t('chat.delete'), () => useChatUiStore.getState().askDelete(message))}
        </div>
      )}
    </>
  );
}
