import { useTranslation } from 'react-i18next';
import { errorText, useAuthStore, useNotificationsStore, userApi, type Me } from '@messenger/shared';

type Setting = 'popup_notifications' | 'sound_notifications' | 'private_notifications';

const SETTINGS: Array<{ key: Setting; label: string }> = [
  { key: 'popup_notifications', label: 'profile.popup' },
  { key: 'sound_notifications', label: 'profile.sound' },
  { key: 'private_notifications', label: 'profile.private' },
];

/** Notification settings are the account's, kept on the server, so every device follows them. */
export function NotificationSettings({ user }: { user: Me }) {
  const { t } = useTranslation('messenger');
  const toggle = async (key: Setting, value: boolean) => {
    const previous = useAuthStore.getState().user;
    if (previous) useAuthStore.getState().setUser({ ...previous, [key]: value });
    try {
      useAuthStore.getState().setUser(await userApi.edit({ [key]: value }));
    } catch (error) {
      if (previous) useAuthStore.getState().setUser(previous);
      useNotificationsStore.getState().push({ kind: 'error', text: errorText(error, 'messenger:profile.settingsError') });
    }
  };
  return (
    <fieldset className="msg-settings">
      <legend>{t('profile.notifications')}</legend>
      {SETTINGS.map(({ key, label }) => (
        <label key={key} className="msg-switch">
          <span>{t(label)}</span>
          <input type="checkbox" role="switch" checked={user[key]} onChange={(event) => void toggle(key, event.target.checked)} />
        </label>
      ))}
    </fieldset>
  );
}
