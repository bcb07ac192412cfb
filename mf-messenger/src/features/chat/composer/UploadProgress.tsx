import { useTranslation } from 'react-i18next';
import { useUploadsStore } from './uploadsStore';

/** Each file on its way up: its name, a progress bar, and Cancel. */
export function UploadProgress({ chatId }: { chatId: number }) {
  const { t } = useTranslation('messenger');
  // Select the list itself (a stable value) and filter here: a selector must not build a new array each time.
  const all = useUploadsStore((state) => state.uploads);
  const uploads = all.filter((upload) => upload.chatId === chatId);
  if (uploads.length === 0) return null;
  return (
    <ul className="msg-uploads" aria-label={t('upload.list')}>
      {uploads.map((upload) => (
        <li key={upload.id} className="msg-upload">
          <span className="msg-upload-name">{upload.name}</span>
          {upload.failed ? (
            <>
              <span className="ui-error" role="alert">
                {upload.failed}
              </span>
              <button type="button" className="ui-button" onClick={upload.retry} aria-label={t('upload.retryOf', { name: upload.name })}>
                {t('common:actions.retry')}
              </button>
            </>
          ) : (
            <progress max={1} value={upload.progress} aria-label={t('upload.progress', { name: upload.name })} />
          )}
          <button type="button" className="ui-button" onClick={upload.cancel} aria-label={t('upload.cancelOf', { name: upload.name })}>
            {t('upload.cancel')}
          </button>
        </li>
      ))}
    </ul>
  );
}
