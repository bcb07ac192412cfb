// The limits of spec §9 that both sides enforce: the server refuses past them, the client stops typing at them.

export const limits = {
  /** A person's, a contact's or a group's name, in characters. */
  nameMax: 60,
  /** A message's text, in characters. */
  textMax: 10_000,
  /** A search query. */
  searchMax: 120,
  /** Staff notes about a person. */
  notesMax: 1000,
  usernameMax: 60,
  /** A phone number as typed (digits, spaces, signs). */
  phoneMaxLength: 25,
  /** Spec §5: the largest upload, in MB, of a person and of staff (role manager and above). */
  uploadLimitMb: 10,
  uploadLimitStaffMb: 50,
} as const;

/**
 * Passwords made for staff (by the server, or suggested by the admin's screen): 16 characters of letters and digits
 * that cannot be mistaken for one another when read aloud or copied by hand (no 0/O/o, 1/l/I), about 93 bits.
 */
export const GENERATED_PASSWORD = { alphabet: 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789', length: 16 } as const;

/** A group's join code (spec §4): C- and ten letters or digits. */
export const CHAT_JOIN_CODE_PATTERN = '^C-[A-Za-z0-9]{10}$';

/** Auto-delete intervals of spec §4, in seconds (off, 5 s … 14 days); 0 is off. */
export const AUTO_DELETE_INTERVALS = [0, 5, 10, 30, 60, 300, 3600, 21600, 43200, 86400, 259200, 604800, 1209600] as const;

/** The reactions a person can give (a small fixed set, issue 14), one per person per message. */
export const REACTION_EMOJI = ['👍', '❤️', '😂', '😮', '😢', '🙏'] as const;

/** The live events that bring a new message, one per type a person sends (a call's message comes with `call`). */
export const MESSAGE_EVENT_TYPES = ['text', 'image', 'audio', 'video', 'document'] as const;

/** The languages of the product (spec §8); the first is the default. */
export const LANGUAGES = ['en', 'ru', 'tr', 'es', 'it', 'de', 'fr'] as const;
