/** The server strings of spec §8; the server sends them verbatim as `message`. */
export const ServerStrings = {
  noSuchUser: 'no such user',
  banned: 'you are banned',
  muted: "you're muted by admin",
  cannotParse: 'cannot parse message',
  chatUnavailable: "chat isn't available anymore",
  cannotAddContact: 'cannot add this user to contacts',
  contactExists: 'This contact has already been added.',
} as const;

/** Translation keys (namespace `common`) for server strings, so every app shows them in the person's language. */
export const SERVER_STRING_KEYS: Record<string, string> = {
  [ServerStrings.noSuchUser]: 'serverErrors.noSuchUser',
  [ServerStrings.banned]: 'serverErrors.banned',
  [ServerStrings.muted]: 'serverErrors.muted',
  [ServerStrings.cannotParse]: 'serverErrors.cannotParse',
  [ServerStrings.chatUnavailable]: 'serverErrors.chatUnavailable',
  [ServerStrings.cannotAddContact]: 'serverErrors.cannotAddContact',
  [ServerStrings.contactExists]: 'serverErrors.contactExists',
};

/** Translation keys (namespace `common`) for the server's error codes that people meet often. */
export const ERROR_CODE_KEYS: Record<string, string> = {
  code_invalid: 'serverErrors.codeInvalid',
  code_expired: 'serverErrors.codeExpired',
  code_attempts_exceeded: 'serverErrors.codeAttempts',
  invalid_phone: 'serverErrors.invalidPhone',
  sms_failed: 'serverErrors.smsFailed',
  message_too_long: 'serverErrors.messageTooLong',
  wrong_password: 'serverErrors.wrongPassword',
  invalid_ticket: 'serverErrors.invalidTicket',
};
