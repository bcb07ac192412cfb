import { useTranslation } from 'react-i18next';
import { errorText, mediaUrl, useNotificationsStore } from '@messenger/shared';
import { useIsObserver } from '../observer';

/** Downloads a stored file under its own name (spec: save as), fetching a fresh media token on click. */
export function SaveAsLink({ path, name, asMenuItem = false, onDone }: { path: string; name: string; asMenuItem?: boolean; onDone?: () => void }) {
  const { t } = useTranslation('messenger');
  const observer = useIsObserver();
  const save = async () => {
    onDone?.();
    try {
      const url = await mediaUrl(path, true, observer);
      if (!url) throw new Error(t('chat.fileUnavailable'));
      const link = document.createElement('a');
      link.href = url;
      link.download = name;
      link.rel = 'noopener';
      document.body.append(link);
      link.click();
      link.remove();
    } catch (error) {
      useNotificationsStore.getState().push({ kind: 'error', text: errorText(error, 'messenger:chat.fileUnavailable') });
    }
  };
  return (
    <button type="button" className={asMenuItem ? 'msg-menu-item' : 'ui-button msg-save-as'} role={asMenuItem ? 'menuitem' : undefined}
      tabIndex={asMenuItem ? -1 : undefined}
      onClick={() => void save()}>
      {t('chat.saveAs')}
    </button>
  );
}
