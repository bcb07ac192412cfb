import type { CallsService } from '../calls/service.js';
import type { Tx } from '../../db/index.js';
import type { EventLog } from '../../events/log.js';
import { chatViewsFor, lockChat, memberView } from '../chats/repository.js';
import { actorProfile } from './repository.js';
import { tellContactChanged, tellContactRemoved } from '../contacts/events.js';
import { endSessions } from '../auth/sessions.js';
import type { SocketSupervisor } from '../realtime/socket-guard.js';

const pairKey = (a: number, b: number) => `${Math.min(a, b)}:${Math.max(a, b)}`;

interface GuestChat extends Record<string, unknown> {
  id: number;
  chat_type: 'private' | 'group';
  /** The other person of a private chat. */
  other_id: number | null;
}

/**
 * Folds a guest into the existing account that has just proven the phone number, inside the verifying
 * transaction. Everything the guest had becomes the account's:
 *
 * - messages they sent (and forwards naming them), files they uploaded, calls they made, contacts both ways;
 * - groups: the guest's membership becomes the account's (or is dropped when the account is in the group too);
 * - private chats: a chat with someone the account has no private chat with becomes the account's. A chat with
 *   someone the account already has a private chat with is merged into that chat — the guest chat's messages
 *   (and calls) move there, so nothing is lost and the pair keeps one chat; each person keeps the later of their
 *   two read marks, and unread counts are recounted from it so they stay exact. A private chat between the guest
 *   and the account itself would become a chat with oneself and is deleted.
 *
 * Then the guest is marked deleted and its logins revoked. Events: the account gets `chat-created` for each chat
 * it gains, `chat-updated` for a chat that absorbed another, `contact-added` for each contact it gains; other
 * people get `chat-updated` (participants changed), `chat-deleted` for a private chat merged away, and where they
 * had the guest as a contact `contact-removed` for it and `contact-added` for the account (unless they had it).
 */
export async function mergeGuestInto(
  tx: Tx,
  events: EventLog,
  sockets: SocketSupervisor,
  guestId: number,
  accountId: number,
  origin: string,
  /** The guest leaves the calls of its chats, and a chat folded away ends its call (as a leave or a deletion does). */
  calls: Pick<CallsService, 'whenMembersLeave' | 'whenChatDeleted'>,
): Promise<void> {
  const chats = await tx.query<GuestChat>(
    `SELECT c.id, c.chat_type,
            (SELECT o.user_id FROM chat_members o WHERE o.chat_id = c.id AND o.user_id <> $1 ORDER BY o.user_id LIMIT 1) AS other_id
       FROM chat_members m JOIN chats c ON c.id = m.chat_id
      WHERE m.user_id = $1 ORDER BY c.id`,
    [guestId],
  );
  // The account's own private chat with the same person, where there is one.
  const targets = new Map<number, number>();
  for (const chat of chats) {
    if (chat.chat_type !== 'private' || chat.other_id === null || chat.other_id === accountId) continue;
    const [target] = await tx.query<{ id: number }>('SELECT id FROM chats WHERE private_key = $1', [pairKey(accountId, chat.other_id)]);
    if (target) targets.set(chat.id, target.id);
  }
  // Chats first, in id order: the lock order of every writer.
  for (const id of [...new Set([...chats.map((chat) => chat.id), ...targets.values()])].sort((a, b) => a - b)) {
    await lockChat(tx, id);
  }

  // What the guest did is now the account's. (A client id the account already used gets a fresh one.)
  await tx.query(
    `UPDATE messages m SET sender_id = $2,
            client_id = CASE WHEN EXISTS (SELECT 1 FROM messages x WHERE x.sender_id = $2 AND x.client_id = m.client_id)
                             THEN gen_random_uuid() ELSE m.client_id END
      WHERE m.sender_id = $1`,
    [guestId, accountId],
  );
  await tx.query('UPDATE messages SET forwarded_from_id = $2 WHERE forwarded_from_id = $1', [guestId, accountId]);
  // Reactions too, except where the account reacted to the same message itself (one per person: theirs stays).
  await tx.query(
    `UPDATE message_reactions r SET user_id = $2 WHERE r.user_id = $1
        AND NOT EXISTS (SELECT 1 FROM message_reactions x WHERE x.message_id = r.message_id AND x.user_id = $2)`,
    [guestId, accountId],
  );
  await tx.query('DELETE FROM message_reactions WHERE user_id = $1', [guestId]);
  await tx.query('UPDATE files SET owner_id = $2 WHERE owner_id = $1', [guestId, accountId]);
  await tx.query('UPDATE calls SET caller_id = $2 WHERE caller_id = $1', [guestId, accountId]);
  await tx.query('UPDATE chats SET owner_id = $2 WHERE owner_id = $1', [guestId, accountId]);
  const gainedContacts = await tx.query<{ user_id: number }>(
    `INSERT INTO contacts (owner_id, user_id, alias_name, created_at, phone_known)
     SELECT $2, user_id, alias_name, created_at, phone_known FROM contacts WHERE owner_id = $1 AND user_id <> $2
     ON CONFLICT (owner_id, user_id) DO NOTHING RETURNING user_id`,
    [guestId, accountId],
  );
  const accountAddedBy = await tx.query<{ owner_id: number }>(
    // Those who had the guest (who had no phone) never typed the account's number: it stays hidden from them.
    `INSERT INTO contacts (owner_id, user_id, alias_name, created_at, phone_known)
     SELECT owner_id, $2, alias_name, created_at, false FROM contacts WHERE user_id = $1 AND owner_id <> $2
     ON CONFLICT (owner_id, user_id) DO NOTHING RETURNING owner_id`,
    [guestId, accountId],
  );
  const guestRemovedFrom = await tx.query<{ owner_id: number; role: number }>(
    `DELETE FROM contacts c USING users u WHERE u.id = c.owner_id AND c.user_id = $1 RETURNING c.owner_id, u.role`,
    [guestId],
  );
  await tx.query('DELETE FROM contacts WHERE owner_id = $1', [guestId]);

  const gained: number[] = []; // chats the account did not have: chat-created to it
  const updated = new Map<number, number[]>(); // chat → who gets chat-updated
  const deleted = new Map<number, number[]>(); // chat → who gets chat-deleted
  for (const chat of chats) {
    const members = (await tx.query<{ user_id: number }>('SELECT user_id FROM chat_members WHERE chat_id = $1', [chat.id])).map(
      (row) => row.user_id,
    );
    const others = members.filter((id) => id !== guestId && id !== accountId);
    // The guest is no longer in any of its chats: out of a call running there (the account may join it anew).
    calls.whenMembersLeave(tx, chat.id, [guestId]);
    if (chat.chat_type === 'group') {
      if (members.includes(accountId)) {
        await tx.query('DELETE FROM chat_members WHERE chat_id = $1 AND user_id = $2', [chat.id, guestId]);
        updated.set(chat.id, [...others, accountId]);
      } else {
        await tx.query('UPDATE chat_members SET user_id = $3 WHERE chat_id = $1 AND user_id = $2', [chat.id, guestId, accountId]);
        gained.push(chat.id);
        updated.set(chat.id, others);
      }
      continue;
    }
    if (chat.other_id === null || chat.other_id === accountId) {
      deleted.set(chat.id, chat.other_id === accountId ? [accountId] : []);
      await calls.whenChatDeleted(tx, chat.id);
      await tx.query('DELETE FROM chats WHERE id = $1', [chat.id]);
      continue;
    }
    const target = targets.get(chat.id);
    if (target === undefined) {
      await tx.query('UPDATE chats SET private_key = $2 WHERE id = $1', [chat.id, pairKey(accountId, chat.other_id)]);
      await tx.query('UPDATE chat_members SET user_id = $3 WHERE chat_id = $1 AND user_id = $2', [chat.id, guestId, accountId]);
      gained.push(chat.id);
      updated.set(chat.id, [chat.other_id]);
      continue;
    }
    await calls.whenChatDeleted(tx, chat.id); // folded into the account's chat, which goes on
    await absorbPrivateChat(tx, chat.id, target, guestId, accountId);
    deleted.set(chat.id, [chat.other_id]);
    updated.set(target, [chat.other_id, accountId]);
  }

  // Its username goes free (it would stay taken for good, the account's own person included).
  await tx.query('UPDATE users SET deleted = true, username = NULL WHERE id = $1', [guestId]);
  // The guest's own tokens and sockets end with it; the person goes on with the account's.
  await endSessions(tx, sockets, guestId);

  const contactOwners = guestRemovedFrom.map((row) => row.owner_id);
  const recipients = [accountId, ...[...updated.values()].flat(), ...[...deleted.values()].flat(), ...contactOwners];
  await events.lockRecipients(tx, recipients);
  // Only now the rows of those the guest invited: some are recipients (the inviter is each one's contact), and the
  // log's rows are locked in id order first, as every writer of it does.
  await tx.query('UPDATE users SET invited_by = $2 WHERE invited_by = $1 AND id <> $2', [guestId, accountId]);
  const account = await actorProfile(tx, accountId);
  // Contacts: the account's tabs hear of those it gained; whoever had the guest sees it replaced by the account.
  for (const { user_id: userId } of gainedContacts) await tellContactChanged(tx, events, account, userId, 'contact-added');
  const addedAccount = new Set(accountAddedBy.map((row) => row.owner_id));
  for (const owner of [...guestRemovedFrom].sort((a, b) => a.owner_id - b.owner_id)) {
    const contactOwner = { id: owner.owner_id, role: owner.role };
    await tellContactRemoved(tx, events, contactOwner, guestId);
    if (addedAccount.has(owner.owner_id)) await tellContactChanged(tx, events, contactOwner, accountId, 'contact-added');
  }
  for (const chatId of gained) {
    const view = memberView(await chatViewsFor(tx, chatId, [accountId], origin), accountId);
    await events.append(tx, [accountId], 'chat-created', { chat_id: chatId, user: account, chat: view });
  }
  for (const [chatId, userIds] of deleted) {
    if (userIds.length > 0) await events.append(tx, userIds, 'chat-deleted', { chat_id: chatId });
  }
  for (const [chatId, userIds] of updated) {
    const views = await chatViewsFor(tx, chatId, userIds, origin);
    for (const userId of [...new Set(userIds)].sort((a, b) => a - b)) {
      const chat = views.get(userId);
      if (chat) await events.append(tx, [userId], 'chat-updated', { chat_id: chatId, chat });
    }
  }
}

/**
 * Moves a guest's private chat into the account's chat with the same person, then deletes the emptied chat.
 * Message ids grow with time, so the merged history reads in order.
 */
async function absorbPrivateChat(tx: Tx, from: number, into: number, guestId: number, accountId: number): Promise<void> {
  await tx.query('UPDATE messages SET chat_id = $2 WHERE chat_id = $1', [from, into]);
  await tx.query('UPDATE calls SET chat_id = $2 WHERE chat_id = $1', [from, into]);
  // Each person keeps the later of their two read marks (the guest's mark counts as the account's)…
  await tx.query(
    `UPDATE chat_members t SET last_read_message_id = greatest(t.last_read_message_id, g.last_read_message_id)
       FROM chat_members g
      WHERE t.chat_id = $2 AND g.chat_id = $1
        AND (g.user_id = t.user_id OR (g.user_id = $3 AND t.user_id = $4))`,
    [from, into, guestId, accountId],
  );
  // …and the unread count is recounted from it: messages from the other person after the mark.
  await tx.query(
    `UPDATE chat_members t SET unread_count = (
        SELECT count(*) FROM messages x
         WHERE x.chat_id = t.chat_id AND x.deleted_at IS NULL AND x.sender_id <> t.user_id AND x.id > t.last_read_message_id)
      WHERE t.chat_id = $1`,
    [into],
  );
  // With no live message in either, the chat keeps its place in the list: the later of the two chats' last activity
  // (as message deletion keeps a chat's). A message past its auto-delete time is no last message, as there.
  await tx.query(
    `UPDATE chats c SET last_message_id = latest.id,
            last_message_at = coalesce(latest.created_at, greatest(c.last_message_at, (SELECT last_message_at FROM chats WHERE id = $2)))
       FROM (SELECT (SELECT id FROM messages
                      WHERE chat_id = $1 AND deleted_at IS NULL AND (expires_at IS NULL OR expires_at > now())
                      ORDER BY id DESC LIMIT 1) AS id) pick
       LEFT JOIN messages latest ON latest.id = pick.id
      WHERE c.id = $1`,
    [into, from],
  );
  await tx.query('DELETE FROM chats WHERE id = $1', [from]);
}
