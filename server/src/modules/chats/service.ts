import type { Services } from '../../services.js';
import { ServerStrings, badRequest, notFound } from '../../http/errors.js';
import { findUserById, publicProfiles } from '../users/repository.js';
import type { PublicUserView } from '../users/model.js';
import { MESSAGE_COLUMNS, type ChatView, type MessageRow, type MessageView, toChat, toMessage } from './model.js';
import { chatUnavailable, findChatRow, listChatRows, requireMembership } from './repository.js';

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
    if (!row) throw chatUnavailable();
    return toChat(row, origin);
  }

  /**
   * Opens the private chat between the caller and one other person, creating it on first use. A pair has one
   * private chat however often, or however concurrently, it is asked for.
   */
  async createPrivate(userId: number, otherId: number, origin: string): Promise<{ chat: ChatView; created: boolean }> {
    if (otherId === userId) throw badRequest('You cannot start a chat with yourself', 'chat_with_self');
    const other = await findUserById(this.services.db, otherId);
    if (!other || other.deleted) throw notFound(ServerStrings.noSuchUser, 'no_such_user');
    const key = `${Math.min(userId, otherId)}:${Math.max(userId, otherId)}`;
    const chatId = await this.services.db.transaction(async (tx) => {
      const [created] = await tx.query<{ id: number }>(
        `INSERT INTO chats (chat_type, private_key) VALUES ('private', $1) ON CONFLICT (private_key) DO NOTHING RETURNING id`,
        [key],
      );
      if (!created) return null;
      await tx.query('INSERT INTO chat_members (chat_id, user_id) VALUES ($1, $2), ($1, $3)', [created.id, userId, otherId]);
      const [creator] = await publicProfiles(tx, 0, 0, [userId]);
      await this.services.events.append(tx, [userId, otherId], 'chat-created', { chat_id: created.id, user: creator });
      return created.id;
    });
    if (chatId !== null) return { chat: await this.get(userId, chatId, origin), created: true };
    const [existing] = await this.services.db.query<{ id: number }>('SELECT id FROM chats WHERE private_key = $1', [key]);
    return { chat: await this.get(userId, existing!.id, origin), created: false };
  }

  /**
   * A page of history, newest page first, messages oldest first within it. `before_id` pages stably while new
   * messages arrive; `page_num` is the spec's offset paging.
   */
  async history(userId: number, chatId: number, pageSize: number, pageNum: number, beforeId: number | undefined): Promise<HistoryPage> {
    await requireMembership(this.services.db, userId, chatId);
    const rows = await this.services.db.query<MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM messages
        WHERE chat_id = $1 AND deleted_at IS NULL AND (expires_at IS NULL OR expires_at > now())
          AND ($2::bigint IS NULL OR id < $2)
        ORDER BY id DESC LIMIT $3 OFFSET $4`,
      [chatId, beforeId ?? null, pageSize + 1, (pageNum - 1) * pageSize],
    );
    const hasMore = rows.length > pageSize;
    return { messages: rows.slice(0, pageSize).reverse().map(toMessage), has_more: hasMore };
  }

  /** Marks everything in the chat read for the caller; their other tabs hear of it through `chat-read`. */
  async markRead(userId: number, chatId: number): Promise<{ chat_id: number; unread_messages: number }> {
    await this.services.db.transaction(async (tx) => {
      const [changed] = await tx.query<{ unread_count: number }>(
        `UPDATE chat_members m SET unread_count = 0,
                last_read_message_id = greatest(m.last_read_message_id, coalesce(c.last_message_id, 0))
           FROM chats c
          WHERE c.id = m.chat_id AND m.chat_id = $1 AND m.user_id = $2
            AND (m.unread_count > 0 OR m.last_read_message_id < coalesce(c.last_message_id, 0))
          RETURNING m.unread_count`,
        [chatId, userId],
      );
      if (changed) {
        await this.services.events.append(tx, [userId], 'chat-read', { chat_id: chatId, unread_messages: 0 });
      } else {
        await requireMembership(tx, userId, chatId);
      }
    });
    return { chat_id: chatId, unread_messages: 0 };
  }

  async unreadCount(userId: number, chatId: number): Promise<{ chat_id: number; unread_messages: number }> {
    const [row] = await this.services.db.query<{ unread_count: number }>(
      'SELECT unread_count FROM chat_members WHERE chat_id = $1 AND user_id = $2',
      [chatId, userId],
    );
    if (!row) throw chatUnavailable();
    return { chat_id: chatId, unread_messages: row.unread_count };
  }
}
