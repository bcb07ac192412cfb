import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar, displayName, filterContacts, normalizeSearch, useContactsStore } from '@messenger/shared';

/** Choose people from one's contacts (minus some), with a search box. */
export function MemberPicker({ chosen, onChange, exclude = [] }: { chosen: Set<number>; onChange: (chosen: Set<number>) => void; exclude?: number[] }) {
  const { t } = useTranslation('messenger');
  const contacts = useContactsStore((state) => state.contacts);
  const [query, setQuery] = useState('');
  const shown = filterContacts(contacts, normalizeSearch(query)).filter((contact) => !exclude.includes(contact.id));
  return (
    <>
      <label className="ui-field">
        <span>{t('groups.searchContacts')}</span>
        <input type="search" value={query} onChange={(event) => setQuery(event.target.value)} />
      </label>
      <fieldset className="msg-pick-list">
        <legend className="visually-hidden">{t('groups.members')}</legend>
        {shown.length === 0 && <p className="ui-empty">{t('groups.noContacts')}</p>}
        {shown.map((contact) => {
          const name = displayName(contact);
          return (
            <label key={contact.id} className="msg-pick-row">
              <input
                type="checkbox"
                checked={chosen.has(contact.id)}
                onChange={(event) => {
                  const next = new Set(chosen);
                  if (event.target.checked) next.add(contact.id);
                  else next.delete(contact.id);
                  onChange(next);
                }}
              />
              <Avatar name={name} path={contact.avatar} size={32} />
              <span>{name}</span>
            </label>
          );
        })}
      </fieldset>
    </>
  );
}
