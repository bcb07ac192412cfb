import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  Avatar,
  Role,
  clampCharacters,
  config,
  displayName,
  errorText,
  usePhoneFormatter,
  unlessGuest,
  useAuthStore,
  useContactsStore,
  useNotificationsStore,
  useUsersStore,
  staffApi,
  userApi,
  type Chat,
  type PublicUser,
} from '@messenger/shared';
import { AddContactModal } from '../contacts/AddContactModal';

/**
 * Spec §2 private profile panel: the other person of a private chat, titled by their role, with their phone,
 * username and name. A contact can be renamed (their alias) or removed; someone else can be added.
 */
export function PersonPanel({ chat, onClose }: { chat: Chat; onClose: () => void }) {
  const formatPhone = usePhoneFormatter();
  const { t } = useTranslation('messenger');
  const me = useAuthStore((state) => state.user?.id ?? 0);
  const myRole = useAuthStore((state) => state.user?.role);
  const guest = useAuthStore((state) => state.user?.temporary ?? false);
  const peerId = chat.participants.find((id) => id !== me) ?? null;
  const profile = useUsersStore((state) => (peerId === null ? undefined : state.profiles[peerId]));
  const contact = useContactsStore((state) => state.contacts.find((candidate) => candidate.id === peerId));
  const [alias, setAlias] = useState(contact?.alias_name ?? '');
  // The contact's name as the field started from: added from this panel, or renamed in another tab, the field
  // follows unless it was edited here (a Save would send the old name back).
  const [shownAlias, setShownAlias] = useState(contact?.alias_name ?? '');
  if ((contact?.alias_name ?? '') !== shownAlias) {
    if (alias === shownAlias) setAlias(contact?.alias_name ?? '');
    setShownAlias(contact?.alias_name ?? '');
  }
  const [adding, setAdding] = useState(false);

  // The profile may have changed since it was cached; fetch it fresh when the panel opens.
  useEffect(() => {
    if (peerId === null) return;
    userApi
      .profile(peerId)
      .then((fresh) => useUsersStore.getState().upsert([fresh]))
      .catch(() => undefined);
  }, [peerId]);

  const name = displayName(contact, profile);
  const title = (profile?.role ?? 0) >= Role.admin ? t('people.admin') : profile?.role === Role.manager ? t('people.manager') : t('people.user');
  const phone = contact?.phone ?? profile?.phone ?? null;

  const rename = async (event: FormEvent) => {
    event.preventDefault();
    if (!contact || !alias.trim() || alias.trim() === contact.alias_name) return;
    try {
      await useContactsStore.getState().rename(contact.id, alias.trim());
      useNotificationsStore.getState().push({ kind: 'success', text: t('people.renamed') });
    } catch (error) {
      useNotificationsStore.getState().push({ kind: 'error', text: errorText(error, 'messenger:people.renameError') });
    }
  };

  return (
    <aside className="msg-panel" aria-labelledby="person-panel-title">
      <header className="msg-panel-header">
        <h2 id="person-panel-title">{title}</h2>
        <button type="button" className="ui-icon-button" aria-label={t('common:actions.close')} onClick={onClose}>
          ×
        </button>
      </header>
      {profile?.deleted ? (
        <p className="ui-warning msg-panel-section" role="alert">
          {t('people.deleted')}
        </p>
      ) : (
        <>
          <div className="msg-panel-section msg-panel-avatar">
            <Avatar name={name} path={profile?.avatar} size={88} />
            <p className="msg-panel-title">{name}</p>
          </div>
          <dl className="msg-panel-section msg-facts">
            {profile?.name && (
              <div>
                <dt>{t('people.name')}</dt>
                <dd>{profile.name}</dd>
              </div>
            )}
            {profile?.username && (
              <div>
                <dt>{t('people.username')}</dt>
                <dd>@{profile.username}</dd>
              </div>
            )}
            {phone && (
              <div>
                <dt>{t('people.phone')}</dt>
                <dd>{formatPhone(phone)}</dd>
              </div>
            )}
          </dl>
          {(myRole ?? 0) >= Role.admin && profile && peerId !== null && (
            <AdminSection userId={peerId} profile={profile} myRole={myRole ?? 0} name={name} />
          )}
          {contact ? (
            <form className="msg-form msg-panel-section" onSubmit={rename}>
              <label className="ui-field">
                <span>{t('people.alias')}</span>
                <input value={alias} onChange={(event) => setAlias(clampCharacters(event.target.value, config.nameMax))} />
              </label>
              <button type="submit" className="ui-button ui-button-primary" disabled={!alias.trim() || alias.trim() === contact.alias_name}>
                {t('common:actions.save')}
              </button>
            </form>
          ) : (
            (profile?.username || phone) && (
              <div className="msg-panel-section">
                <button type="button" className="ui-button" onClick={() => unlessGuest(guest, () => setAdding(true))}>
                  {t('contacts.add', { name })}
                </button>
              </div>
            )
          )}
        </>
      )}
      {adding && <AddContactModal initial={{ name: profile?.name ?? '', username: profile?.username ?? undefined }} onClose={() => setAdding(false)} />}
    </aside>
  );
}

/** Spec §2/§6: admins see a person's role (and may change it), their notes, and block or unblock them. */
function AdminSection({ userId, profile, myRole, name }: { userId: number; profile: PublicUser; myRole: number; name: string }) {
  const { t } = useTranslation('messenger');
  const [notes, setNotes] = useState(profile.notes ?? '');
  const canManage = profile.role < myRole;
  const roles = [Role.user, Role.manager, ...(myRole >= Role.topAdmin ? [Role.admin] : [])];

  const refresh = async () => useUsersStore.getState().upsert([await userApi.profile(userId)]);
  const fail = (error: unknown) => useNotificationsStore.getState().push({ kind: 'error', text: errorText(error, 'messenger:people.adminError') });

  const changeRole = async (role: number) => {
    try {
      await staffApi.setRole(userId, role);
      await refresh();
      useNotificationsStore.getState().push({ kind: 'success', text: t('people.roleChanged') });
    } catch (error) {
      fail(error);
    }
  };

  const saveNotes = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await staffApi.edit(userId, { notes });
      await refresh();
      useNotificationsStore.getState().push({ kind: 'success', text: t('people.notesSaved') });
    } catch (error) {
      fail(error);
    }
  };

  return (
    <section className="msg-panel-section" aria-label={t('people.adminSection')}>
      <label className="ui-field">
        <span>{t('people.role')}</span>
        <select value={profile.role} disabled={!canManage} onChange={(event) => void changeRole(Number(event.target.value))}>
          {[...new Set([...roles, profile.role])].sort().map((role) => (
            <option key={role} value={role}>
              {t(`people.roles.${Math.min(role, 3)}`)}
            </option>
          ))}
        </select>
      </label>
      <form className="msg-form" onSubmit={saveNotes}>
        <label className="ui-field">
          <span>{t('people.notes')}</span>
          <textarea value={notes} rows={3} disabled={!canManage} onChange={(event) => setNotes(clampCharacters(event.target.value, config.notesMax))} />
        </label>
        <button type="submit" className="ui-button" disabled={!canManage || notes === (profile.notes ?? '')}>
          {t('people.saveNotes')}
        </button>
      </form>
      {canManage && <BlockToggle userId={userId} blocked={profile.blocked ?? false} name={name} />}
    </section>
  );
}

/** Spec §4/§6: admins block or unblock people below them from the panel. */
function BlockToggle({ userId, blocked, name }: { userId: number; blocked: boolean; name: string }) {
  const { t } = useTranslation('messenger');
  const toggle = async (next: boolean) => {
    try {
      useUsersStore.getState().upsert([await userApi.setBlocked(userId, next)]);
      useNotificationsStore.getState().push({ kind: 'success', text: next ? t('people.blockedToast', { name }) : t('people.unblockedToast', { name }) });
    } catch (error) {
      useNotificationsStore.getState().push({ kind: 'error', text: errorText(error, 'messenger:people.blockError') });
    }
  };
  return (
    <label className="msg-switch msg-panel-section">
      <span>{t('people.blocked')}</span>
      <input type="checkbox" role="switch" checked={blocked} onChange={(event) => void toggle(event.target.checked)} />
    </label>
  );
}
