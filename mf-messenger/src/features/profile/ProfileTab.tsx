import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Avatar,
  ConfirmDialog,
  Role,
  displayName,
  errorText,
  filesApi,
  usePhoneFormatter,
  signOut,
  useAuthStore,
  useNotificationsStore,
  useTemporaryLoginStore,
  userApi,
} from '@messenger/shared';
import { EditProfileForm } from './EditProfileForm';
import { NotificationSettings } from './NotificationSettings';
import { PrivacySettings } from './PrivacySettings';
import { AppearanceSettings } from './AppearanceSettings';
import { InviteLinkRow } from './InviteLinkRow';
import { AvatarPicker } from '../avatar/AvatarPicker';
import { ChangePasswordDialog } from './ChangePasswordDialog';

/**
 * Spec §2 profile: the card (with edit, except for managers), settings rows, the privacy policy, the invite
 * link, delete all media, and log out. Guests see no card and no invite link, and a Sign in button.
 */
export function ProfileTab() {
  const formatPhone = usePhoneFormatter();
  const { t } = useTranslation('messenger');
  const user = useAuthStore((state) => state.user);
  const [editing, setEditing] = useState(false);
  const [confirm, setConfirm] = useState<'logout' | 'media' | null>(null);
  const [changingPassword, setChangingPassword] = useState(false);
  if (!user) return null;
  const name = displayName(user);
  const canEdit = user.role !== Role.manager;

  const saveAvatar = async (path: string) => {
    try {
      useAuthStore.getState().setUser(await userApi.edit({ avatar: path }));
      useNotificationsStore.getState().push({ kind: 'success', text: t('profile.saved') });
    } catch (error) {
      useNotificationsStore.getState().push({ kind: 'error', text: errorText(error, 'messenger:profile.saveError') });
    }
  };

  const deleteAllMedia = async () => {
    setConfirm(null);
    try {
      const result = await filesApi.deleteAll();
      useNotificationsStore.getState().push({ kind: 'success', text: t('profile.mediaDeleted', { count: result.deleted_files }) });
    } catch (error) {
      useNotificationsStore.getState().push({ kind: 'error', text: errorText(error, 'messenger:profile.mediaDeleteError') });
    }
  };

  return (
    <div className="msg-profile">
      {!user.temporary && (
        <section className="msg-profile-card" aria-label={name}>
          <Avatar name={name} path={user.avatar} size={88} />
          {canEdit && <AvatarPicker label={t('profile.changePicture')} onSaved={saveAvatar} />}
          {editing ? (
            <EditProfileForm user={user} onDone={() => setEditing(false)} />
          ) : (
            <>
              <h2 className="msg-profile-name">{name}</h2>
              {user.username && <p className="msg-profile-username">@{user.username}</p>}
              {user.phone && (
                <p className="msg-profile-phone">
                  <span className="visually-hidden">{t('profile.phone')}: </span>
                  {formatPhone(user.phone)}
                </p>
              )}
              {canEdit && (
                <button type="button" className="ui-button" onClick={() => setEditing(true)}>
                  {t('profile.edit')}
                </button>
              )}
            </>
          )}
        </section>
      )}
      {user.temporary && (
        <section className="msg-settings" aria-label={t('profile.guestTitle')}>
          <p>{t('profile.guestExplain')}</p>
          <button type="button" className="ui-button ui-button-primary" onClick={() => useTemporaryLoginStore.getState().show()}>
            {t('profile.signIn')}
          </button>
        </section>
      )}
      <NotificationSettings user={user} />
      <PrivacySettings user={user} />
      <AppearanceSettings />
      {!user.temporary && <InviteLinkRow link={user.invite_link} />}
      <div className="msg-profile-actions">
        <a className="ui-button msg-link-button" href="/privacy" target="_blank" rel="noreferrer">
          {t('profile.privacyPolicy')}
        </a>
        {user.role >= Role.manager && (
          <button type="button" className="ui-button" onClick={() => setChangingPassword(true)}>
            {t('profile.changePassword')}
          </button>
        )}
        <button type="button" className="ui-button" onClick={() => setConfirm('media')}>
          {t('profile.deleteMedia')}
        </button>
        <button type="button" className="ui-button ui-button-danger" onClick={() => setConfirm('logout')}>
          {t('profile.logout')}
        </button>
      </div>
      {changingPassword && <ChangePasswordDialog onClose={() => setChangingPassword(false)} />}
      {confirm === 'logout' && (
        <ConfirmDialog
          title={t('profile.logoutTitle')}
          subtitle={t('profile.logoutSubtitle')}
          approveLabel={t('profile.logout')}
          danger
          onApprove={() => signOut()}
          onCancel={() => setConfirm(null)}
        />
      )}
      {confirm === 'media' && (
        <ConfirmDialog
          title={t('profile.deleteMediaTitle')}
          subtitle={t('profile.deleteMediaSubtitle')}
          approveLabel={t('profile.deleteMedia')}
          danger
          onApprove={() => void deleteAllMedia()}
          onCancel={() => setConfirm(null)}
        />
      )}
    </div>
  );
}
