import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar, ConfirmDialog, Role, displayName, formatPhone, signOut, useAuthStore } from '@messenger/shared';
import { EditProfileForm } from './EditProfileForm';
import { NotificationSettings } from './NotificationSettings';
import { AppearanceSettings } from './AppearanceSettings';
import { InviteLinkRow } from './InviteLinkRow';

/** Spec §2 profile: the card (with edit, except for managers), settings rows, the invite link, and log out. */
export function ProfileTab() {
  const { t } = useTranslation('messenger');
  const user = useAuthStore((state) => state.user);
  const [editing, setEditing] = useState(false);
  const [confirmLogout, setConfirmLogout] = useState(false);
  if (!user) return null;
  const name = displayName(user);
  return (
    <div className="msg-profile">
      {!user.temporary && (
        <section className="msg-profile-card" aria-label={name}>
          <Avatar name={name} src={user.avatar} size={88} />
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
              {user.role !== Role.manager && (
                <button type="button" className="ui-button" onClick={() => setEditing(true)}>
                  {t('profile.edit')}
                </button>
              )}
            </>
          )}
        </section>
      )}
      <NotificationSettings user={user} />
      <AppearanceSettings />
      {!user.temporary && <InviteLinkRow link={user.invite_link} />}
      <div className="msg-profile-actions">
        <button type="button" className="ui-button ui-button-danger" onClick={() => setConfirmLogout(true)}>
          {t('profile.logout')}
        </button>
      </div>
      {confirmLogout && (
        <ConfirmDialog
          title={t('profile.logoutTitle')}
          subtitle={t('profile.logoutSubtitle')}
          approveLabel={t('profile.logout')}
          danger
          onApprove={() => signOut()}
          onCancel={() => setConfirmLogout(false)}
        />
      )}
    </div>
  );
}
