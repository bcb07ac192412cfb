import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { syncPush, usePushStore, type Me } from '@messenger/shared';
import { saveSettings } from './saveSettings';

type Setting = 'popup_notifications' | 'sound_notifications' | 'private_notifications';

const SETTINGS: Array<{ key: Setting; label: string }> = [
  { key: 'popup_notifications', label: 'profile.popup' },
  { key: 'sound_notifications', label: 'profile.sound' },
  { key: 'private_notifications', label: 'profile.private' },
];

/** Notification settings are the account's, kept on the server, so every device follows them. */
export function NotificationSettings({ user }: { user: Me }) {
  const { t } = useTranslation('messenger');
  const toggle = (key: Setting, value: boolean) => saveSettings({ [key]: value });
  return (
    <fieldset className="msg-settings">
      <legend>{t('profile.notifications')}</legend>
      {SETTINGS.map(({ key, label }) => (
        <label key={key} className="msg-switch">
          <span>{t(label)}</span>
          <input type="checkbox" role="switch" checked={user[key]} onChange={(event) => void toggle(key, event.target.checked)} />
        </label>
      ))}
      <DesktopNotifications />
    </fieldset>
  );
}

/**
 * Desktop notifications — while the tab is hidden, and through Web Push with the app closed where the browser
 * can — need the browser's permission, asked only when the person chooses to, never on load.
 */
function DesktopNotifications() {
  const { t } = useTranslation('messenger');
  const supported = typeof Notification !== 'undefined';
  const [permission, setPermission] = useState(supported ? Notification.permission : 'denied');
  const push = usePushStore((state) => state.status);
  if (!supported) return null;
  const allow = async () => {
    setPermission(await Notification.requestPermission());
    await syncPush();
  };
  return (
    <div className="msg-switch">
      <span>{t('profile.desktop')}</span>
      {permission === 'granted' && push === 'on' && <span className="ui-hint">{t('profile.desktopOn')}</span>}
      {permission === 'granted' && push !== 'on' && push !== 'checking' && <span className="ui-hint">{t('profile.desktopOpenOnly')}</span>}
      {permission === 'denied' && <span className="ui-hint">{t('profile.desktopBlocked')}</span>}
      {permission === 'default' && (
        <button type="button" className="ui-button" onClick={() => void allow()}>
          {t('profile.desktopAllow')}
        </button>
      )}
    </div>
  );
}
