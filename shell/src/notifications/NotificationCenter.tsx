import { useNavigate } from '@messenger/router';
import { useTranslation } from 'react-i18next';
import { avatarPlaceholder, useNotificationsStore, type NotificationItem } from '@messenger/shared';
import { useLiveNotifications } from './useLiveNotifications';

/** The notifications and toasts centre (spec §4: at most 5, message toasts open their chat on click). */
export function NotificationCenter() {
  const { t } = useTranslation('shell');
  const items = useNotificationsStore((state) => state.items);
  useLiveNotifications();
  return (
    <section className="shell-notifications" aria-label={t('notifications.region')} aria-live="polite">
      {items.map((item) => (
        <Notification key={item.id} item={item} />
      ))}
    </section>
  );
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
          aria-label={`${t('notifications.openChat')}: ${item.sender ?? ''} ${item.text}`}
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
