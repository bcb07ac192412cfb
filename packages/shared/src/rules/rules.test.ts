import { displayName } from './display-name';
import { avatarPlaceholder, AVATAR_GRADIENTS } from './avatar';
import { filterContacts, normalizeSearch } from './search';
import { formatListTime } from './time';
import { whenPhoneRulesLoad } from './phone';
import { cleanUsername, isValidUsername } from './username';
import { characterCount, clampCharacters } from './text';
import { formatByteSize } from './bytes';
import type { Contact } from '../model/types';

describe('display name (spec §3)', () => {
  it('takes alias_name, then name, then username, then chat_name, else ?', () => {
    expect(displayName({ alias_name: 'Bob', name: 'Robert', username: 'rob' })).toBe('Bob');
    expect(displayName({ alias_name: '', name: 'Robert', username: 'rob' })).toBe('Robert');
    expect(displayName({ name: '  ', username: 'rob' })).toBe('rob');
    expect(displayName({ chat_name: 'Team' })).toBe('Team');
    expect(displayName({})).toBe('?');
    expect(displayName(undefined, null)).toBe('?');
  });

  it('looks across sources field by field', () => {
    expect(displayName({ alias_name: '' }, { name: 'From profile' })).toBe('From profile');
  });

  it('shows the phone the viewer may see before giving up with ?', async () => {
    // In its E.164 form until the phone rules are there; asking for one loads them (nothing else does here).
    expect(displayName({ name: '', username: null, phone: '+4915112345678' })).toBe('+4915112345678');
    await new Promise<void>((resolve) => whenPhoneRulesLoad(resolve));
    expect(displayName({ name: '', username: null, phone: '+4915112345678' })).toBe('+49 1511 2345678');
    expect(displayName({ alias_name: null }, { name: null, phone: '+4915112345678' }, { chat_name: '' })).toBe('+49 1511 2345678');
    expect(displayName({ username: 'rob', phone: '+4915112345678' })).toBe('rob');
    expect(displayName({ phone: null, chat_name: 'Team' })).toBe('Team');
  });
});

describe('avatar placeholder', () => {
  it('capitalises the first letter and picks one of 7 gradients by its code', () => {
    const anna = avatarPlaceholder('anna');
    expect(anna.letter).toBe('A');
    expect(anna.gradient).toBe(AVATAR_GRADIENTS['A'.charCodeAt(0) % 7]);
    expect(avatarPlaceholder('Ärger').letter).toBe('Ä');
    expect(avatarPlaceholder('').letter).toBe('?');
    expect(new Set('abcdefg'.split('').map((c) => avatarPlaceholder(c).gradient)).size).toBe(7);
  });
});

describe('search (spec §5)', () => {
  it('lowercases, strips @, + and whitespace, and caps at 120 characters', () => {
    expect(normalizeSearch('  @Anna Maria ')).toBe('annamaria');
    expect(normalizeSearch('+49 151 234')).toBe('49151234');
    expect(normalizeSearch('x'.repeat(200))).toHaveLength(120);
    expect(normalizeSearch('   ')).toBe('');
  });

  it('matches contacts by alias, phone, name or username, never deleted ones', () => {
    const contact = (id: number, extra: Partial<Contact>): Contact => ({
      id,
      alias_name: '',
      name: '',
      username: null,
      phone: null,
      avatar: null,
      is_deleted_contact: false,
      deleted: false,
      ...extra,
    });
    const contacts = [
      contact(1, { alias_name: 'Mum' }),
      contact(2, { phone: '+4915112345678' }),
      contact(3, { username: 'zed' }),
      contact(4, { name: 'Zed Gone', deleted: true }),
    ];
    expect(filterContacts(contacts, normalizeSearch('mu')).map((c) => c.id)).toEqual([1]);
    expect(filterContacts(contacts, normalizeSearch('+49 151')).map((c) => c.id)).toEqual([2]);
    expect(filterContacts(contacts, normalizeSearch('@ZE')).map((c) => c.id)).toEqual([3]);
    expect(filterContacts(contacts, '').map((c) => c.id)).toEqual([1, 2, 3]);
  });
});

describe('time display (spec §4)', () => {
  const now = new Date('2026-11-21T15:00:00');
  it('shows HH:mm today, the weekday within a week, month and day this year, else the full date', () => {
    expect(formatListTime('2026-11-21T09:05:00', 'en', now)).toBe('09:05');
    expect(formatListTime('2026-11-18T09:05:00', 'en', now)).toBe('Wed');
    expect(formatListTime('2026-03-02T09:05:00', 'en', now)).toBe('Mar 2');
    expect(formatListTime('2025-03-02T09:05:00', 'en', now)).toBe('3/2/2025');
    expect(formatListTime('2026-11-18T09:05:00', 'de', now)).toBe('Mi');
    expect(formatListTime(null, 'en', now)).toBe('');
    expect(formatListTime('not a time', 'en', now)).toBe('');
  });

  it('counts calendar days, not 24-hour spans: the weekday for six days back, the date from the seventh', () => {
    expect(formatListTime('2026-11-20T23:59:00', 'en', now)).toBe('Fri');
    expect(formatListTime('2026-11-15T00:01:00', 'en', now)).toBe('Sun');
    expect(formatListTime('2026-11-14T23:59:00', 'en', now)).toBe('Nov 14');
    // A time sent with its offset (as the server sends them) is shown in local time.
    const utcNoon = '2026-11-21T12:00:00.000Z';
    expect(formatListTime(utcNoon, 'en', now)).toBe(new Intl.DateTimeFormat('en', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(utcNoon)));
  });

  it('a week across a change of the clocks still counts seven days (the tests run in Berlin, spring forward)', () => {
    // The time zone is the Jest config's; without a clock change in it this test would prove nothing.
    expect(new Date('2026-03-30T12:00:00').getTimezoneOffset()).not.toBe(new Date('2026-03-28T12:00:00').getTimezoneOffset());
    const thursday = new Date('2026-04-02T10:00:00');
    expect(formatListTime('2026-03-27T10:00:00', 'en', thursday)).toBe('Fri');
    // Six days and 23 hours back: the seventh calendar day, so the date.
    expect(formatListTime('2026-03-26T10:00:00', 'en', thursday)).toBe('Mar 26');
  });
});

describe('usernames', () => {
  it('drops a leading @ and accepts a letter then letters, digits or underscores, 3–60 long', () => {
    expect(cleanUsername('  @anna_1 ')).toBe('anna_1');
    expect(isValidUsername('anna_1')).toBe(true);
    expect(isValidUsername('')).toBe(true);
    expect(isValidUsername('1anna')).toBe(false);
    expect(isValidUsername('an')).toBe(false);
    expect(isValidUsername('a b c')).toBe(false);
    expect(isValidUsername(`a${'b'.repeat(59)}`)).toBe(true);
    expect(isValidUsername(`a${'b'.repeat(60)}`)).toBe(false);
  });
});

describe('text length (one rule with the server: characters are code points)', () => {
  it('counts an emoji or any astral character as one', () => {
    expect(characterCount('')).toBe(0);
    expect(characterCount('abc')).toBe(3);
    expect(characterCount('😀😀')).toBe(2);
    expect(characterCount('𝔸é')).toBe(2);
  });

  it('cuts to a number of characters, never through a surrogate pair', () => {
    expect(clampCharacters('abcdef', 3)).toBe('abc');
    expect(clampCharacters('😀😀😀', 2)).toBe('😀😀');
    expect(clampCharacters('a😀b', 2)).toBe('a😀');
    expect(clampCharacters('short', 60)).toBe('short');
  });

  it('search keeps 120 characters of emoji whole', () => {
    expect(normalizeSearch('😀'.repeat(130))).toBe('😀'.repeat(120));
  });
});

describe('file sizes', () => {
  it('steps by 1024 and speaks the language, units included', () => {
    expect(formatByteSize(12, 'en')).toBe('12 byte');
    expect(formatByteSize(340 * 1024, 'en')).toBe('340 kB');
    expect(formatByteSize(1.25 * 1024 * 1024, 'de')).toBe('1,3 MB');
    // French spaces with a narrow no-break space.
    expect(formatByteSize(1.25 * 1024 * 1024, 'fr').replace(/\s/gu, ' ')).toBe('1,3 Mo');
    expect(formatByteSize(5 * 1024 ** 4, 'en')).toBe('5,120 GB');
  });
});

