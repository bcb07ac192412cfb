/**
 * Server strings of spec §8 (and ours), sent verbatim as an error's `message`; the client knows them by this same
 * table and shows each in the person's language.
 */
export const ServerStrings = {
  noSuchUser: 'no such user',
  banned: 'you are banned',
  muted: "you're muted by admin",
  cannotParse: 'cannot parse message',
  chatUnavailable: "chat isn't available anymore",
  cannotAddContact: 'cannot add this user to contacts',
  contactExists: 'This contact has already been added.',
} as const;
