import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchStore } from '@messenger/shared';
import { useSidebarStore } from '../layouts/useSidebarStore';

/** The side bar's search (spec §5: at most 120 characters, cut by the search store; the lists match on the normalised text). */
export function SearchBox() {
  const { t } = useTranslation('shell');
  const text = useSearchStore((state) => state.text);
  const setText = useSearchStore((state) => state.setText);
  const input = useRef<HTMLInputElement>(null);
  const focusWanted = useSidebarStore((state) => state.searchFocusWanted);
  useEffect(() => {
    if (!focusWanted) return;
    input.current?.focus();
    input.current?.select();
    useSidebarStore.getState().wantSearchFocus(false);
  }, [focusWanted]);
  return (
    <input
      ref={input}
      type="search"
      className="shell-search"
      aria-label={t('sidebar.search')}
      placeholder={t('sidebar.search')}
      value={text}
      onChange={(event) => setText(event.target.value)}
      onKeyDown={(event) => {
        if (event.key === 'Escape') setText('');
      }}
    />
  );
}
