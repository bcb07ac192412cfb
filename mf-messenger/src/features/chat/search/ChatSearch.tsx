import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon, chatsApi, clampCharacters, config, errorText } from '@messenger/shared';
import { useChatUiStore } from '../chatUiStore';

/** How long typing must pause before the search runs. */
const DEBOUNCE_MS = 300;

/**
 * Search in this chat: matches are highlighted in the messages; previous/next walk through them (newest first),
 * loading older history as needed to show each one.
 */
export function ChatSearch({ chatId, query, onQuery, onClose }: { chatId: number; query: string; onQuery: (query: string) => void; onClose: () => void }) {
  const { t } = useTranslation('messenger');
  const focusMessage = useChatUiStore((state) => state.focusMessage);
  const [hits, setHits] = useState<number[] | null>(null);
  const [current, setCurrent] = useState(0);
  /** Why the last search failed (offline, refused): never shown as "no matches". */
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    const needle = query.trim();
    if (!needle) return;
    let cancelled = false;
    const timer = setTimeout(() => {
      chatsApi
        .search(chatId, needle)
        .then((ids) => {
          if (cancelled) return;
          setFailure(null);
          setHits(ids);
          setCurrent(0);
          if (ids[0] !== undefined) focusMessage(chatId, ids[0]);
        })
        .catch((error: unknown) => {
          if (cancelled) return;
          setHits(null);
          setFailure(errorText(error, 'messenger:chat.searchFailed'));
        });
    }, DEBOUNCE_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [chatId, query, focusMessage]);

  const go = (step: number) => {
    if (!hits || hits.length === 0) return;
    const next = (current + step + hits.length) % hits.length;
    setCurrent(next);
    focusMessage(chatId, hits[next]!);
  };

  const found = query.trim() && hits ? hits.length : 0;
  return (
    <div className="msg-search" role="search">
      <input
        type="search"
        aria-label={t('chat.searchInChat')}
        placeholder={t('chat.searchInChat')}
        value={query}
        autoFocus
        onChange={(event) => {
          onQuery(clampCharacters(event.target.value, config.searchMax));
          if (!event.target.value.trim()) {
            setHits(null);
            setFailure(null);
          }
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter') go(event.shiftKey ? -1 : 1);
          if (event.key === 'Escape') onClose();
        }}
      />
      <span className="msg-search-count" role="status">
        {query.trim() && failure
          ? failure
          : query.trim() && hits
            ? found > 0
              ? t('chat.searchPosition', { current: current + 1, total: found })
              : t('chat.searchNone')
            : ''}
      </span>
      <button type="button" className="ui-icon-button" aria-label={t('chat.searchOlder')} disabled={found === 0} onClick={() => go(1)}>
        <Icon name="up" />
      </button>
      <button type="button" className="ui-icon-button" aria-label={t('chat.searchNewer')} disabled={found === 0} onClick={() => go(-1)}>
        <Icon name="down" />
      </button>
      <button type="button" className="ui-icon-button" aria-label={t('chat.closeSearch')} onClick={onClose}>
        ×
      </button>
    </div>
  );
}
