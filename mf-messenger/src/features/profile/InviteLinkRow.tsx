import { useTranslation } from 'react-i18next';
import { useNotificationsStore } from '@messenger/shared';

/** The person's invite link, to copy and share. */
export function InviteLinkRow({ link }: { link: string }) {
  const { t } = useTranslation('messenger');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      useNotificationsStore.getState().push({ kind: 'success', text: t('profile.linkCopied') });
    } catch (error) {
      const text = error instanceof Error && error.message ? error.message : t('profile.copyFailed');
      useNotificationsStore.getState().push({ kind: 'error', text });
    }
  };
  return (
    <div className="msg-settings">
      <label className="ui-field">
        <span>{t('profile.inviteLink')}</span>
        <input readOnly value={link} onFocus={(event) => event.target.select()} />
      </label>
      <button type="button" className="ui-button" onClick={() => void copy()}>
        {t('profile.copyLink')}
      </button>
    </div>
  );
}
