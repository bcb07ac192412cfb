import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog, Role, clampCharacters, config, errorText, usePhoneFormatter, staffApi, useAuthStore, useNotificationsStore, type Credentials, type Employee } from '@messenger/shared';
import { AddManagerDialog, EditEmployeeDialog } from './EmployeeDialogs';
import { CredentialsDialog } from './CredentialsDialog';
import { generatePassword } from './passwords';

type Load = { state: 'loading' } | { state: 'failed'; error: string } | { state: 'loaded'; users: Employee[]; truncated: boolean };
type Dialog =
  | { kind: 'add' }
  | { kind: 'edit'; employee: Employee }
  | { kind: 'reset'; employee: Employee }
  | { kind: 'delete'; employee: Employee }
  | { kind: 'role'; employee: Employee; role: number }
  | { kind: 'credentials'; credentials: Credentials }
  | null;

/** How long typing must pause before the list is asked for again. */
const SEARCH_DEBOUNCE_MS = 300;

/**
 * Spec §2 employees (role ≥ 2): the people of the product with their role and notes; admins add managers, edit
 * them, reset their passwords, block, mute, change roles and delete — for people below their own role.
 */
export function EmployeesPage() {
  const formatPhone = usePhoneFormatter();
  /** How a person is named on this page: their name, else their username, else their phone (names may be empty). */
  const labelOf = (employee: Employee) => employee.name || (employee.username ? `@${employee.username}` : formatPhone(employee.phone));
  const { t, i18n } = useTranslation('staff');
  const me = useAuthStore((state) => state.user);
  const [query, setQuery] = useState('');
  const [managersOnly, setManagersOnly] = useState(true);
  const [showDeleted, setShowDeleted] = useState(false);
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [dialog, setDialog] = useState<Dialog>(null);
  const [version, setVersion] = useState(0);
  const myRole = me?.role ?? 0;

  useEffect(() => {
    let cancelled = false;
    const timer = setTimeout(() => {
      staffApi
        .list({ managers: managersOnly, query: query.trim(), deleted: showDeleted })
        .then(({ users, truncated }) => !cancelled && setLoad({ state: 'loaded', users, truncated }))
        .catch((error: unknown) => !cancelled && setLoad({ state: 'failed', error: errorText(error, 'staff:employees.loadFailed') }));
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [query, managersOnly, showDeleted, version]);

  const reload = () => setVersion((n) => n + 1);
  const notify = (text: string) => useNotificationsStore.getState().push({ kind: 'success', text });
  const fail = (error: unknown, key: string) => useNotificationsStore.getState().push({ kind: 'error', text: errorText(error, key) });

  const act = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      notify(done);
      reload();
    } catch (error) {
      fail(error, 'staff:employees.saveError');
    }
  };

  const resetPasswords = async (employee: Employee) => {
    setDialog(null);
    try {
      const result = await staffApi.edit(employee.id, { password: generatePassword(), extra_password: generatePassword() });
      if (result.credentials) setDialog({ kind: 'credentials', credentials: result.credentials });
      reload();
    } catch (error) {
      fail(error, 'staff:employees.saveError');
    }
  };

  const joined = new Intl.DateTimeFormat(i18n.language, { day: 'numeric', month: 'short', year: 'numeric' });
  // Spec §6: the role select offers admin only to a top admin (role 3).
  const roleOptions = [Role.user, Role.manager, ...(myRole >= Role.topAdmin ? [Role.admin] : [])];

  return (
    <div className="staff-page">
      <header className="staff-header">
        <h1>{t('employees.title')}</h1>
        <button type="button" className="ui-button ui-button-primary" onClick={() => setDialog({ kind: 'add' })}>
          {t('employees.addManager')}
        </button>
      </header>
      <div className="staff-filters" role="search">
        <label className="ui-field">
          <span>{t('employees.search')}</span>
          <input type="search" value={query} onChange={(event) => setQuery(clampCharacters(event.target.value, config.searchMax))} />
        </label>
        <label className="staff-check">
          <input type="checkbox" checked={managersOnly} onChange={(event) => setManagersOnly(event.target.checked)} />
          {t('employees.staffOnly')}
        </label>
        <label className="staff-check">
          <input type="checkbox" checked={showDeleted} onChange={(event) => setShowDeleted(event.target.checked)} />
          {t('employees.showDeleted')}
        </label>
      </div>
      {load.state === 'loading' && <p role="status">{t('common:loading')}</p>}
      {load.state === 'failed' && (
        <div role="alert">
          <p>{load.error}</p>
          <button type="button" className="ui-button" onClick={reload}>
            {t('common:actions.retry')}
          </button>
        </div>
      )}
      {load.state === 'loaded' && load.users.length === 0 && <p className="ui-empty">{t('employees.empty')}</p>}
      {load.state === 'loaded' && load.truncated && (
        <p className="ui-warning" role="status">
          {t('employees.truncated', { count: load.users.length })}
        </p>
      )}
      {load.state === 'loaded' && load.users.length > 0 && (
        <div className="staff-table-wrap">
          <table className="staff-table">
            <caption className="visually-hidden">{t('employees.title')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('employees.name')}</th>
                <th scope="col">{t('employees.phone')}</th>
                <th scope="col">{t('employees.joined')}</th>
                <th scope="col">{t('employees.role')}</th>
                <th scope="col">{t('employees.notes')}</th>
                <th scope="col">{t('employees.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {load.users.map((employee) => {
                const label = labelOf(employee);
                const canManage = employee.id !== me?.id && employee.role < myRole && !employee.deleted;
                return (
                  <tr key={employee.id} className={employee.deleted ? 'staff-row-deleted' : undefined}>
                    <th scope="row">
                      {label}
                      {employee.username && <span className="staff-sub">@{employee.username}</span>}
                      {employee.blocked && <span className="staff-tag">{t('employees.blockedTag')}</span>}
                      {employee.isMuted && <span className="staff-tag">{t('employees.mutedTag')}</span>}
                      {employee.deleted && <span className="staff-tag">{t('employees.deletedTag')}</span>}
                    </th>
                    <td>{formatPhone(employee.phone)}</td>
                    <td>
                      <time dateTime={employee.created_at}>{joined.format(new Date(employee.created_at))}</time>
                    </td>
                    <td>
                      <select
                        aria-label={t('employees.roleOf', { name: label })}
                        value={employee.role}
                        disabled={!canManage}
                        // Asked first: an arrow key on a closed select already fires change, and a new role signs
                        // the person out everywhere (demoted to user, their passwords go too).
                        onChange={(event) => setDialog({ kind: 'role', employee, role: Number(event.target.value) })}
                      >
                        {[...new Set([...roleOptions, employee.role])].sort().map((role) => (
                          <option key={role} value={role}>
                            {t(`roles.${Math.min(role, 3)}`)}
                          </option>
                        ))}
                      </select>
                    </td>
                    <td className="staff-notes">{employee.notes}</td>
                    <td>
                      <div className="staff-actions">
                        <button type="button" className="ui-button" disabled={!canManage} onClick={() => setDialog({ kind: 'edit', employee })} aria-label={t('employees.editOf', { name: label })}>
                          {t('employees.edit')}
                        </button>
                        {employee.role >= Role.manager && (
                          <button type="button" className="ui-button" disabled={!canManage} onClick={() => setDialog({ kind: 'reset', employee })} aria-label={t('employees.resetOf', { name: label })}>
                            {t('employees.resetPasswords')}
                          </button>
                        )}
                        <button
                          type="button"
                          className="ui-button"
                          disabled={!canManage}
                          aria-label={employee.blocked ? t('employees.unblockOf', { name: label }) : t('employees.blockOf', { name: label })}
                          onClick={() =>
                            void act(() => staffApi.setBlocked(employee.id, !employee.blocked), employee.blocked ? t('employees.unblocked', { name: label }) : t('employees.blocked', { name: label }))
                          }
                        >
                          {employee.blocked ? t('employees.unblock') : t('employees.block')}
                        </button>
                        <button
                          type="button"
                          className="ui-button"
                          disabled={!canManage}
                          aria-label={employee.isMuted ? t('employees.unmuteOf', { name: label }) : t('employees.muteOf', { name: label })}
                          onClick={() =>
                            void act(() => staffApi.setMuted(employee.id, !employee.isMuted), employee.isMuted ? t('employees.unmuted', { name: label }) : t('employees.muted', { name: label }))
                          }
                        >
                          {employee.isMuted ? t('employees.unmute') : t('employees.mute')}
                        </button>
                        <button type="button" className="ui-button" disabled={!canManage} onClick={() => setDialog({ kind: 'delete', employee })} aria-label={t('employees.deleteOf', { name: label })}>
                          {t('employees.delete')}
                        </button>
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {dialog?.kind === 'add' && (
        <AddManagerDialog
          onClose={() => setDialog(null)}
          onCreated={(credentials) => {
            setDialog({ kind: 'credentials', credentials });
            reload();
          }}
        />
      )}
      {dialog?.kind === 'edit' && (
        <EditEmployeeDialog
          employee={dialog.employee}
          onClose={() => setDialog(null)}
          onSaved={() => {
            setDialog(null);
            notify(t('employees.saved'));
            reload();
          }}
        />
      )}
      {dialog?.kind === 'reset' && (
        <ConfirmDialog
          title={t('employees.resetTitle')}
          subtitle={t('employees.resetSubtitle', { name: labelOf(dialog.employee) })}
          approveLabel={t('employees.resetPasswords')}
          onApprove={() => void resetPasswords(dialog.employee)}
          onCancel={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmDialog
          title={t('employees.deleteTitle')}
          subtitle={t('employees.deleteSubtitle', { name: labelOf(dialog.employee) })}
          approveLabel={t('employees.delete')}
          danger
          onApprove={() => {
            const { employee } = dialog;
            setDialog(null);
            void act(() => staffApi.remove(employee.id), t('employees.deleted', { name: labelOf(employee) }));
          }}
          onCancel={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'role' && (
        <ConfirmDialog
          title={t('employees.roleTitle')}
          subtitle={t('employees.roleSubtitle', { name: labelOf(dialog.employee), role: t(`roles.${Math.min(dialog.role, 3)}`) })}
          approveLabel={t('employees.changeRole')}
          danger={dialog.role < dialog.employee.role}
          onApprove={() => {
            const { employee, role } = dialog;
            setDialog(null);
            void act(() => staffApi.setRole(employee.id, role), t('employees.roleChanged', { name: labelOf(employee) }));
          }}
          onCancel={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'credentials' && <CredentialsDialog credentials={dialog.credentials} onClose={() => setDialog(null)} />}
    </div>
  );
}
