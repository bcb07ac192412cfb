import type { Migration } from './index.js';

/** Issue 9: sessions that end at once, and phones shown only to those who typed them in. */
export const sessionsPhones: Migration = {
  version: 6,
  name: '006-sessions-phones',
  statements: [
    // Access tokens carry the generation they were issued in; blocking, deleting, a role change or a password reset
    // moves it on, and every token of an older generation is refused from that moment (docs/decisions.md).
    `ALTER TABLE users ADD COLUMN session_generation integer NOT NULL DEFAULT 0`,
    // Whether the owner of a contact typed its phone number (added by number, or invited by number): only then is
    // the number shown to them. A contact made by username or by following an invite link does not reveal it.
    `ALTER TABLE contacts ADD COLUMN phone_known boolean NOT NULL DEFAULT false`,
    // Contacts from before: all were added by number or username, except the inviter a link-follower got; the two
    // cannot be told apart any more, so only the link ones are known for sure not to reveal the number.
    `UPDATE contacts c SET phone_known = true
      WHERE NOT EXISTS (SELECT 1 FROM users o WHERE o.id = c.owner_id AND o.invited_by = c.user_id)`,
  ],
};
