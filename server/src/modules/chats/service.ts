import type { Services } from '../../services.js';
import type { Tx } from '../../db/index.js';
import type { EventLog } from '../../events/log.js';
import { ServerStrings, badRequest, forbidden, notFound } from '../../http/errors.js';
import { actorProfile, findUserById, publicProfiles } from '../users/repository.js';
import type { PublicUserView } from '../users/model.js';
import { loadActor, loadAdmin, refuseGuests, usesAdminPower } from '../users/actor.js';
import { CHAT_SELECT, CHAT_SELECT_ANY, MESSAGE_SELECT, type ChatRow, type ChatView, type MessageRow, type MessageView, toChat, toMessage } from './model.js';
import { chatUnavailable, chatViewsFor, findChatRow, listChatRows, lockChat, memberIds, requireMembership } from './repository.js';

export interface ChatList {
  chats: ChatView[];
  /** Per-chat settings the spec keeps apart from the chat (merged into it by clients). */
  metadata: Array<{ id: number; chat_id: number; interval: number }>;
  /** Profiles of the people in these chats, so a private chat can be named without one request per chat. */
  users: PublicUserView[];
  /** The caller's event-log head when this list was read: events up to it are already reflected. */
  seq: number;
}

export interface HistoryPage {
  messages: MessageView[];
  has_more: boolean;
}

/** Most chats `GET /chat/find` answers with. */
const FIND_LIMIT = 100;
/** Most hits `GET /chat/search` answers with. */
const SEARCH_LIMIT = 200;

/**
 * Opens the private chat of two people inside `tx`, creating it (with `chat-created` to both) on first use. A
 * pair has one private chat however often, or however concurrently, it is asked for.
 */
export async function openPrivateChat(tx: Tx, events: EventLog, userId: number, otherId: number): Promise<{ chatId: number; created: boolean }> {
  const key = `${Math.min(userId, otherId)}:${Math.max(userId, otherId)}`;
  const [created] = await tx.query<{ id: number }>(
    `INSERT INTO chats (chat_type, private_key) VALUES ('private', $1) ON CONFLICT (private_key) DO NOTHING RETURNING id`,
    [key],
  );
  if (!created) {
    const [existing] = await tx.query<{ id: number }>('SELECT id FROM chats WHERE private_key = $1', [key]);
    return { chatId: existing!.id, created: false };
  }
  await tx.query('INSERT INTO chat_members (chat_id, user_id) VALUES ($1, $2), ($1, $3)', [created.id, userId, otherId]);
  const creator = await actorProfile(tx, userId);
  await events.append(tx, [userId, otherId], 'chat-created', { chat_id: created.id, user: creator });
  return { chatId: created.id, created: true };
}

/** `chat-updated` to each of `userIds`, with the chat as that person sees it. */
export async function notifyChatUpdated(tx: Tx, events: EventLog, chatId: number, userIds: number[], origin: string): Promise<void> {
  const views = await chatViewsFor(tx, chatId, userIds, origin);
  for (const userId of [...userIds].sort((a, b) => a - b)) {
    const chat = views.get(userId);
    if (chat) await events.append(tx, [userId], 'chat-updated', { chat_id: chatId, chat });
  }
}

/** Lower case without '@', '+' and whitespace (spec §5), in SQL; `$n` is the normalised query as a LIKE pattern. */
const normalised = (expression: string) => `regexp_replace(lower(coalesce(${expression}, '')), '[@+[:space:]]', '', 'g')`;

export class ChatsService {
  constructor(private readonly services: Services) {}

  async list(userId: number, role: number, origin: string): Promise<ChatList> {
    // One snapshot for the rows and the seq, so a client can tell which live events the list already contains.
    return this.services.db.transaction(
      async (tx) => {
        const rows = await listChatRows(tx, userId);
        const seq = await this.services.events.head(userId, tx);
        const chats = rows.map((row) => toChat(row, origin));
        const others = [...new Set(chats.flatMap((chat) => chat.participants))].filter((id) => id !== userId);
        const users = await publicProfiles(tx, userId, role, others);
        const metadata = chats.map((chat) => ({ id: chat.id, chat_id: chat.id, interval: chat.interval }));
        return { chats, metadata, users, seq };
      },
      { readOnly: true },
    );
  }

  async get(userId: number, chatId: number, origin: string): Promise<ChatView> {
    const row = await findChatRow(this.services.db, userId, chatId);
    if (row) return toChat(row, origin);
    // Not a member: an admin may look at any secret group, as an observer (no unread count, no invite code).
    await this.requireObserver(userId, chatId);
    const [observed] = await this.services.db.query<ChatRow>(`${CHAT_SELECT_ANY} WHERE c.id = $2`, [0, chatId]);
    if (!observed) throw chatUnavailable();
    return toChat(observed, origin, null);
  }

  /**
   * `GET /chat/list/all` (role ≥ 2): every secret group, newest activity first, as an observer sees it, with the
   * profiles of the people in them.
   */
  async listAll(userId: number, origin: string): Promise<{ chats: ChatView[]; users: PublicUserView[] }> {
    const admin = await loadAdmin(this.services.db, userId);
    return this.services.db.transaction(
      async (tx) => {
        // Viewer 0 is nobody: every row comes without a member's unread count or notification setting.
        const rows = await tx.query<ChatRow>(
          `${CHAT_SELECT_ANY} WHERE c.chat_type = 'group' AND c.is_secret
            ORDER BY c.last_message_at DESC NULLS LAST, c.created_at DESC, c.id DESC`,
          [0],
        );
        const chats = rows.map((row) => toChat(row, origin, null));
        const people = [...new Set(chats.flatMap((chat) => chat.participants))];
        return { chats, users: await publicProfiles(tx, admin.id, admin.role, people) };
      },
      { readOnly: true },
    );
  }

  /**
   * Who may read a chat (its details, history, search): its members, and admins for any secret group (read-only:
   * sending and everything else stay members-only). Anyone else gets the 404 of a chat that does not exist.
   */
  async requireReader(userId: number, chatId: number): Promise<void> {
    const members = await memberIds(this.services.db, chatId);
    if (members.includes(userId)) return;
    await this.requireObserver(userId, chatId);
  }

  /** A non-member looking at a chat: allowed for an admin (passwords set) on a secret group, else 404. */
  private async requireObserver(userId: number, chatId: number): Promise<void> {
    const [chat] = await this.services.db.query<{ is_secret: boolean; chat_type: string }>('SELECT is_secret, chat_type FROM chats WHERE id = $1', [
      chatId,
    ]);
    if (!chat || !chat.is_secret || chat.chat_type !== 'group') throw chatUnavailable();
    const actor = await loadActor(this.services.db, userId);
    if (!usesAdminPower(actor)) throw chatUnavailable();
  }

  /**
   * Opens the private chat between the caller and one other person, creating it on first use. Guests cannot:
   * their one chat comes from the invite link they followed.
   */
  async createPrivate(userId: number, participants: number[], origin: string): Promise<{ chat: ChatView; created: boolean }> {
    refuseGuests(await loadActor(this.services.db, userId));
    if (participants.length !== 1) throw badRequest('A private chat has exactly one other participant', 'validation');
    const otherId = participants[0]!;
    if (otherId === userId) throw badRequest('You cannot start a chat with yourself', 'chat_with_self');
    const other = await findUserById(this.services.db, otherId);
    if (!other || other.deleted) throw notFound(ServerStrings.noSuchUser, 'no_such_user');
    const { chatId, created } = await this.services.db.transaction((tx) => openPrivateChat(tx, this.services.events, userId, otherId));
    return { chat: await this.get(userId, chatId, origin), created };
  }

  /**
   * A page of history, newest page first, messages oldest first within it. `before_id` pages stably while new
   * messages arrive; `page_num` is the spec's offset paging. Expired messages are hidden even before the sweeper
   * has deleted them.
   */
  async history(userId: number, chatId: number, pageSize: number, pageNum: number, beforeId: number | undefined): Promise<HistoryPage> {
    // A member's read (nearly all of them) checks membership in the page's own statement: one round trip.
    // Nothing comes back when they are not one (or the page is empty): then the full check decides, and an
    // admin observing a secret group gets the page without the membership condition.
    let rows = await this.historyRows(chatId, pageSize, pageNum, beforeId, userId);
    if (rows.length === 0) {
      await this.requireReader(userId, chatId);
      rows = await this.historyRows(chatId, pageSize, pageNum, beforeId, null);
    }
    const hasMore = rows.length > pageSize;
    return { messages: rows.slice(0, pageSize).reverse().map(toMessage), has_more: hasMore };
  }

  /** Keyed by id (`beforeId`, what our client uses) or by the spec's `page_num` (an offset); newest first. */
  private historyRows(chatId: number, pageSize: number, pageNum: number, beforeId: number | undefined, memberId: number | null): Promise<MessageRow[]> {
    return this.services.db.query<MessageRow>(
      `${MESSAGE_SELECT}
        WHERE msg.chat_id = $1 AND msg.deleted_at IS NULL AND (msg.expires_at IS NULL OR msg.expires_at > now())
          AND ($2::bigint IS NULL OR msg.id < $2)
          AND ($5::bigint IS NULL OR EXISTS (SELECT 1 FROM chat_members cm WHERE cm.chat_id = $1 AND cm.user_id = $5))
        ORDER BY msg.id DESC LIMIT $3 OFFSET $4`,
      [chatId, beforeId ?? null, pageSize + 1, (pageNum - 1) * pageSize, memberId],
    );
  }

  /**
   * Ids of the chat's live messages whose text (or file name) contains `query`, case-insensitively, newest
   * first. The client brings each into view, loading history as far back as needed.
   */
  async search(userId: number, chatId: number, query: string): Promise<{ message_ids: number[] }> {
    await this.requireReader(userId, chatId);
    const needle = query.trim();
    if (!needle) return { message_ids: [] };
    const pattern = `%${needle.replace(/[\\%_]/g, '\\$&')}%`;
    const rows = await this.services.db.query<{ id: number }>(
      `SELECT msg.id FROM messages msg LEFT JOIN files f ON f.path = msg.file_path
        WHERE msg.chat_id = $1 AND msg.deleted_at IS NULL AND (msg.expires_at IS NULL OR msg.expires_at > now())
          AND (msg.text ILIKE $2 ESCAPE '\\' OR f.original_name ILIKE $2 ESCAPE '\\')
        ORDER BY msg.id DESC LIMIT $3`,
      [chatId, pattern, SEARCH_LIMIT],
    );
    return { message_ids: rows.map((row) => row.id) };
  }

  /**
   * Marks the chat read for the caller — everything, or (with `upTo`) up to the newest message they have seen, so
   * messages that arrived after stay unread. Their other tabs hear of it through `chat-read` with the count left.
   */
  async markRead(userId: number, chatId: number, upTo?: number): Promise<{ chat_id: number; unread_messages: number }> {
    return this.services.db.transaction(async (tx) => {
      // Locks in the order every writer takes them — the chat, then its members, then people — so that a deletion
      // of this chat's messages (which locks its members' rows) and this cannot deadlock; and with `upTo`, it waits
      // for a send in progress in this chat, so the recount below sees its message.
      await tx.query('SELECT 1 FROM chats WHERE id = $1 FOR SHARE', [chatId]);
      // `before` is the read mark as it was (the FROM list sees the row before this update).
      const [changed] = await tx.query<{ unread_count: number; unread_mentions: number; before: number; after: number }>(
        upTo === undefined
          ? `UPDATE chat_members m SET unread_count = 0, unread_mentions = 0,
                    last_read_message_id = greatest(m.last_read_message_id, coalesce(c.last_message_id, 0))
               FROM chats c, (SELECT last_read_message_id AS before FROM chat_members WHERE chat_id = $1 AND user_id = $2) old
              WHERE c.id = m.chat_id AND m.chat_id = $1 AND m.user_id = $2
                AND (m.unread_count > 0 OR m.unread_mentions > 0 OR m.last_read_message_id < coalesce(c.last_message_id, 0))
              RETURNING m.unread_count, m.unread_mentions, old.before, m.last_read_message_id AS after`
          : `UPDATE chat_members m SET last_read_message_id = mark.id,
                    unread_count = (SELECT count(*)::int FROM messages x
                                     WHERE x.chat_id = m.chat_id AND x.deleted_at IS NULL AND x.sender_id <> m.user_id
                                       AND x.id > mark.id),
                    unread_mentions = (SELECT count(*)::int FROM messages x
                                        WHERE x.chat_id = m.chat_id AND x.deleted_at IS NULL AND x.id > mark.id
                                          AND m.user_id = ANY(x.mentions))
               FROM (SELECT greatest(m0.last_read_message_id, least(coalesce(c.last_message_id, 0), $3::bigint)) AS id,
                            m0.last_read_message_id AS before
                       FROM chat_members m0 JOIN chats c ON c.id = m0.chat_id
                      WHERE m0.chat_id = $1 AND m0.user_id = $2) mark
              WHERE m.chat_id = $1 AND m.user_id = $2
                AND (m.last_read_message_id < mark.id OR m.unread_count > 0 OR m.unread_mentions > 0)
              RETURNING m.unread_count, m.unread_mentions, mark.before, m.last_read_message_id AS after`,
        upTo === undefined ? [chatId, userId] : [chatId, userId, upTo],
      );
      if (changed) {
        // Read receipts: whoever wrote one of the messages this mark passed hears how far the reader got.
        const senders =
          Number(changed.after) > Number(changed.before)
            ? await tx.query<{ sender_id: number }>(
                `SELECT DISTINCT x.sender_id FROM messages x
                   JOIN chat_members s ON s.chat_id = x.chat_id AND s.user_id = x.sender_id
                  WHERE x.chat_id = $1 AND x.id > $2 AND x.id <= $3 AND x.sender_id <> $4 AND x.deleted_at IS NULL`,
                [chatId, changed.before, changed.after, userId],
              )
            : [];
        const writers = senders.map((row) => Number(row.sender_id));
        // Every log this transaction appends to, locked in id order first (as every writer of the log does).
        if (writers.length > 0) await this.services.events.lockRecipients(tx, [userId, ...writers]);
        await this.services.events.append(tx, [userId], 'chat-read', {
          chat_id: chatId,
          unread_messages: changed.unread_count,
          unread_mentions: changed.unread_mentions,
        });
        if (writers.length > 0) {
          await this.services.events.append(tx, writers, 'messages-read', { chat_id: chatId, reader_id: userId, up_to: Number(changed.after) });
        }
        return { chat_id: chatId, unread_messages: changed.unread_count };
      }
      await requireMembership(tx, userId, chatId);
      const [row] = await tx.query<{ unread_count: number }>('SELECT unread_count FROM chat_members WHERE chat_id = $1 AND user_id = $2', [
        chatId,
        userId,
      ]);
      return { chat_id: chatId, unread_messages: row?.unread_count ?? 0 };
    });
  }

  async unreadCount(userId: number, chatId: number): Promise<{ chat_id: number; unread_messages: number; unread_mentions: number }> {
    const [row] = await this.services.db.query<{ unread_count: number; unread_mentions: number }>(
      'SELECT unread_count, unread_mentions FROM chat_members WHERE chat_id = $1 AND user_id = $2',
      [chatId, userId],
    );
    if (!row) throw chatUnavailable();
    return { chat_id: chatId, unread_messages: row.unread_count, unread_mentions: row.unread_mentions };
  }

  /**
   * The caller's chats whose display name matches (a group's name; for a private chat the other person's contact
   * alias, name or username), compared as spec §5 normalises search. `isAdmin` (role ≥ 2): secret groups of
   * everyone instead. An empty query matches every chat.
   */
  async find(userId: number, query: string, isAdmin: boolean, origin: string): Promise<ChatView[]> {
    const actor = await loadActor(this.services.db, userId);
    refuseGuests(actor);
    const needle = query.toLowerCase().replace(/[@+\s]/g, '');
    const pattern = `%${needle.replace(/[\\%_]/g, '\\$&')}%`;
    const order = 'ORDER BY c.last_message_at DESC NULLS LAST, c.created_at DESC, c.id DESC';
    let rows: ChatRow[];
    if (isAdmin) {
      // 403 password_setup_required for an admin whose passwords are not set yet.
      if (!usesAdminPower(actor)) throw forbidden('Only admins can search all secret chats', 'admins_only');
      rows = await this.services.db.query<ChatRow>(
        `${CHAT_SELECT_ANY}
          WHERE c.chat_type = 'group' AND c.is_secret AND ${normalised('c.name')} LIKE $2 ESCAPE '\\'
          ${order} LIMIT $3`,
        [userId, pattern, FIND_LIMIT],
      );
    } else {
      rows = await this.services.db.query<ChatRow>(
        `${CHAT_SELECT}
          WHERE m.user_id = $1 AND (
            (c.chat_type = 'group' AND ${normalised('c.name')} LIKE $2 ESCAPE '\\')
            OR (c.chat_type = 'private' AND EXISTS (
              SELECT 1 FROM chat_members o JOIN users u ON u.id = o.user_id
                LEFT JOIN contacts ct ON ct.owner_id = $1 AND ct.user_id = u.id
               WHERE o.chat_id = c.id AND o.user_id <> $1
                 AND (${normalised('ct.alias_name')} LIKE $2 ESCAPE '\\'
                      OR (NOT u.deleted AND (${normalised('u.name')} LIKE $2 ESCAPE '\\'
                                             OR ${normalised('u.username')} LIKE $2 ESCAPE '\\')))))
          )
          ${order} LIMIT $3`,
        [userId, pattern, FIND_LIMIT],
      );
    }
    return rows.map((row) => toChat(row, origin, userId));
  }

  /**
   * `DELETE /chat/{id}`: a group's owner deletes it for everyone, another member leaves it (an admin too: their
   * chat header says "Leave"), an admin who is not in a secret group (an observer) deletes it for everyone; a
   * private chat is deleted for both. `chat-deleted` to whoever lost it, `chat-updated` to who stays.
   */
  async remove(userId: number, chatId: number, origin: string): Promise<void> {
    const actor = await loadActor(this.services.db, userId);
    const { events, calls } = this.services;
    await this.services.db.transaction(async (tx) => {
      const chat = await lockChat(tx, chatId);
      if (!chat) throw chatUnavailable();
      const members = await memberIds(tx, chatId);
      const isMember = members.includes(userId);
      const deletesForAll =
        chat.chat_type === 'private' ? isMember : isMember ? chat.owner_id === userId : chat.is_secret && usesAdminPower(actor);
      if (deletesForAll) {
        await events.append(tx, members, 'chat-deleted', { chat_id: chatId });
        await calls.whenChatDeleted(tx, chatId);
        await tx.query('DELETE FROM chats WHERE id = $1', [chatId]);
        return;
      }
      if (!isMember) throw chatUnavailable();
      // A member who is not the owner leaves the group, and its call if one runs.
      await tx.query('DELETE FROM chat_members WHERE chat_id = $1 AND user_id = $2', [chatId, userId]);
      calls.whenMembersLeave(tx, chatId, [userId]);
      await events.lockRecipients(tx, members);
      await events.append(tx, [userId], 'chat-deleted', { chat_id: chatId });
      await notifyChatUpdated(tx, events, chatId, members.filter((id) => id !== userId), origin);
    });
  }

  /** The caller's own notification setting for a chat; `chat-updated` to the caller only. */
  async setNotifications(userId: number, chatId: number, notifications: boolean, origin: string): Promise<{ chat_id: number; notifications: boolean }> {
    await this.services.db.transaction(async (tx) => {
      // The chat, then the member row, then the person's log: the order of every writer (a deletion of the chat's
      // messages locks its members' logs before it lowers their counts, and would deadlock with this otherwise).
      await tx.query('SELECT 1 FROM chats WHERE id = $1 FOR SHARE', [chatId]);
      const updated = await tx.query('UPDATE chat_members SET notifications = $3 WHERE chat_id = $1 AND user_id = $2 RETURNING user_id', [
        chatId,
        userId,
        notifications,
      ]);
      if (updated.length === 0) throw chatUnavailable();
      await notifyChatUpdated(tx, this.services.events, chatId, [userId], origin);
    });
    return { chat_id: chatId, notifications };
  }

  /**
   * Auto-delete: messages sent from now on expire `interval` seconds after they were sent. Either person of a
   * private chat may set it; in a group only the owner. `chat-interval` to every member when it changes.
   */
  async setInterval(userId: number, chatId: number, interval: number): Promise<{ chat_id: number; interval: number }> {
    await this.services.db.transaction(async (tx) => {
      const chat = await lockChat(tx, chatId);
      if (!chat) throw chatUnavailable();
      const members = await memberIds(tx, chatId);
      if (!members.includes(userId)) throw chatUnavailable();
      if (chat.chat_type === 'group' && chat.owner_id !== userId) throw forbidden('Only the group’s owner can do this', 'owner_only');
      if (chat.interval_seconds === interval) return;
      await tx.query('UPDATE chats SET interval_seconds = $2 WHERE id = $1', [chatId, interval]);
      const user = await actorProfile(tx, userId);
      await this.services.events.append(tx, members, 'chat-interval', { chat_id: chatId, interval, user });
    });
    return { chat_id: chatId, interval };
  }
}
