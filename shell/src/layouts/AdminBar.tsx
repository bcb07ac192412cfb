import { NavLink } from '@messenger/router';
import { useTranslation } from 'react-i18next';

/** Spec §2 admin bar, for role ≥ 2 in the chat and admin layouts. */
export function AdminBar() {
  const { t } = useTranslation('shell');
  return (
    <nav className="shell-admin-bar" aria-label={t('admin.bar')}>
      <NavLink to="/statistics">{t('admin.statistics')}</NavLink>
      <NavLink to="/" end>
        {t('admin.chats')}
      </NavLink>
      <NavLink to="/employees">{t('admin.employees')}</NavLink>
      <NavLink to="/files">{t('admin.files')}</NavLink>
    </nav>
  );
}
