import { createPortal } from 'react-dom';
import { useNavigate } from '@messenger/router';
import { useTranslation } from 'react-i18next';
import { avatarPlaceholder, useModalStack, useNotificationsStore, type NotificationItem } from '@messenger/shared';
import { useLiveNotifications } from './useLiveNotifications';

/**
 * The notifications and toasts centre (spec §4: at most 5, message toasts open their chat on click). While a modal
 * dialog is open it is rendered inside it: the page outside a modal dialog is inert (and hidden from screen
 * readers), and a dialog's own errors are toasts too.
 */
export function NotificationCenter() {
  const { t } = useTranslation('shell');
  const items = useNotificationsStore((state) => state.items);
  const topModal = useModalStack((state) => state.open.at(-1));
  useLiveNotifications();
  const region = (
    <section className="shell-notifications" aria-label={t('notifications.region')} aria-live="polite">
      {items.map((item) => (
        <Notification key={item.id} item={item} />
      ))}
    </section>
  );
  return topModal ? createPortal(region, topModal) : region;
}

function Notification({ item }: { item: NotificationItem }) {
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  const dismiss = useNotificationsStore((state) => state.dismiss);
  const chat = item.chat;
  const placeholder = avatarPlaceholder(item.sender ?? item.title ?? item.text);
  const body = (
    <>
      {item.kind === 'message' && (
        <span className="shell-notification-avatar" aria-hidden="true" style={{ background: placeholder.gradient }}>
          {placeholder.letter}
        </span>
      )}
      <span className="shell-notification-text">
        {item.sender && <strong>{item.sender}</strong>}
        {item.group && <span className="shell-notification-group">{item.group}</span>}
        {item.title && <strong>{item.title}</strong>}
        <span>{item.text}</span>
      </span>
    </>
  );
  return (
    <div className={`shell-notification shell-notification-${item.kind}`} role={item.kind === 'error' ? 'alert' : 'status'}>
      {chat ? (
        <button
          type="button"
          className="shell-notification-body"
          // Named by what it shows (WCAG 2.5.3: who, the group, the text); opening the chat is its tooltip.
          title={t('notifications.openChat')}
          onClick={() => {
            dismiss(item.id);
            navigate(`/${chat.id}`);
          }}
        >
          {body}
        </button>
      ) : (
        <div className="shell-notification-body">{body}</div>
      )}
      <button type="button" className="shell-notification-close" aria-label={t('notifications.dismiss')} onClick={() => dismiss(item.id)}>
        ×
      </button>
    </div>
  );
}
