import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon, errorText, formatByteSize, mediaUrl, staffApi, useNotificationsStore, type FileTreeEntry } from '@messenger/shared';

type Load = { state: 'loading' } | { state: 'failed'; error: string } | { state: 'loaded'; entries: FileTreeEntry[]; truncated: boolean };

/**
 * The stored files (`GET /api/file/tree`), folder by folder, confined to the storage root by the server. Files
 * open through admin media URLs (spec §7), including call recordings, which play in a tab of their own.
 */
export function FilesPage() {
  const { t, i18n } = useTranslation('staff');
  const [path, setPath] = useState('');
  const [load, setLoad] = useState<Load>({ state: 'loading' });

  useEffect(() => {
    let cancelled = false;
    staffApi
      .fileTree(path)
      .then((tree) => !cancelled && setLoad({ state: 'loaded', entries: tree.entries, truncated: tree.truncated }))
      .catch((error: unknown) => !cancelled && setLoad({ state: 'failed', error: errorText(error, 'staff:files.loadFailed') }));
    return () => {
      cancelled = true;
    };
  }, [path]);

  const open = (next: string) => {
    setLoad({ state: 'loading' });
    setPath(next);
  };

  // Opened as the server serves it: pictures, sound and video in the browser's own viewer (a call recording plays
  // at once), anything else saved under its name (the server makes it an attachment).
  // The tab is opened by the click itself and sent to the file once its address is known: a tab opened after that
  // wait is a pop-up to a browser that counts only the click's own moment (Safari), and to any after 5 s.
  const openFile = async (entry: FileTreeEntry) => {
    const tab = window.open('', '_blank');
    if (tab) tab.opener = null;
    try {
      const url = await mediaUrl(entry.path, false, true);
      if (!url) throw new Error(t('files.unavailable'));
      if (tab) tab.location.replace(url);
      else window.open(url, '_blank', 'noopener');
    } catch (error) {
      tab?.close();
      useNotificationsStore.getState().push({ kind: 'error', text: errorText(error, 'staff:files.unavailable') });
    }
  };

  const parts = path.split('/').filter(Boolean);
  return (
    <div className="staff-page">
      <header className="staff-header">
        <h1>{t('files.title')}</h1>
      </header>
      <nav aria-label={t('files.location')} className="staff-breadcrumbs">
        <button type="button" className="ui-link-button" onClick={() => open('')}>
          {t('files.root')}
        </button>
        {parts.map((part, index) => (
          <span key={index}>
            {' / '}
            <button type="button" className="ui-link-button" onClick={() => open(parts.slice(0, index + 1).join('/'))}>
              {part}
            </button>
          </span>
        ))}
      </nav>
      {load.state === 'loading' && <p role="status">{t('common:loading')}</p>}
      {load.state === 'failed' && (
        <p className="ui-error" role="alert">
          {load.error}
        </p>
      )}
      {load.state === 'loaded' && load.entries.length === 0 && <p className="ui-empty">{t('files.empty')}</p>}
      {load.state === 'loaded' && load.truncated && (
        <p className="ui-warning" role="status">
          {t('files.truncated', { count: load.entries.length })}
        </p>
      )}
      {load.state === 'loaded' && load.entries.length > 0 && (
        <table className="staff-table">
          <thead>
            <tr>
              <th scope="col">{t('files.name')}</th>
              <th scope="col">{t('files.size')}</th>
              <th scope="col">{t('files.type')}</th>
            </tr>
          </thead>
          <tbody>
            {load.entries.map((entry) => (
              <tr key={entry.path}>
                <th scope="row">
                  {entry.type === 'dir' ? (
                    <button type="button" className="ui-link-button" onClick={() => open(entry.path)} aria-label={t('files.openFolder', { name: entry.name })}>
                      <Icon name="folder" /> {entry.name}
                    </button>
                  ) : (
                    <>
                      <button
                        type="button"
                        className="ui-link-button"
                        onClick={() => void openFile(entry)}
                        aria-label={t('files.openFile', { name: entry.original_name ?? entry.name })}
                      >
                        {entry.original_name ?? entry.name}
                      </button>
                      {entry.original_name && entry.original_name !== entry.name && <span className="staff-file-stored">{entry.name}</span>}
                    </>
                  )}
                </th>
                <td>{entry.type === 'file' ? formatByteSize(entry.size, i18n.language) : ''}</td>
                <td>{entry.type === 'file' ? (entry.mime ?? '') : t('files.folder')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
