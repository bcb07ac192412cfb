import type { Services } from '../../services.js';
import type { Tx } from '../../db/index.js';
import { ServerStrings, badRequest, forbidden, notFound } from '../../http/errors.js';
import { randomCode } from '../../security/secrets.js';
import { actorProfile } from '../users/repository.js';
import { Role, loadActor, refuseGuests } from '../users/actor.js';
import { requireOwnImage } from '../files/access.js';
import { characterCount } from '../../http/text.js';
import type { ChatView } from './model.js';
import { chatUnavailable, chatViewsFor, lockChat, memberIds, memberView } from './repository.js';
import { notifyChatUpdated } from './service.js';
import { CHAT_JOIN_CODE_PATTERN, limits } from '@messenger/protocol';

const NAME_MAX = limits.nameMax;
const INVITE_CODE = new RegExp(CHAT_JOIN_CODE_PATTERN);

export interface CreateGroupInput {
  name?: string | undefined;
  participants: number[];
  avatar?: string | null | undefined;
  is_secret?: boolean | undefined;
}

function groupName(raw: string | undefined): string {
  const name = (raw ?? '').trim();
  if (!name || characterCount(name) > NAME_MAX) throw badRequest(`A group needs a name of 1 to ${NAME_MAX} characters`, 'invalid_name');
  return name;
}

const ownerOnly = () => forbidden('Only the group’s owner can do this', 'owner_only');

/**
 * Groups: made by one person (the owner) who alone renames them, changes their avatar and members; anyone with
 * the invite code may join, except people the owner removed (until the owner adds them again). Secret groups are
 * made by staff (role ≥ 1).
 */
export class GroupsService {
  constructor(private readonly services: Services) {}

  async create(userId: number, input: CreateGroupInput, origin: string): Promise<ChatView> {
    const db = this.services.db;
    const actor = await loadActor(db, userId);
    refuseGuests(actor);
    const name = groupName(input.name);
    const isSecret = input.is_secret === true;
    if (isSecret && actor.role < Role.manager) throw forbidden('Only staff can create secret chats', 'secret_chats_staff_only');
    const participants = [...new Set(input.participants)].filter((id) => id !== userId);
    if (!isSecret && participants.length === 0) throw badRequest('A group needs at least one other participant', 'participants_required');
    await this.requireUsers(participants);
    const avatar = input.avatar || null;
    if (avatar) await requireOwnImage(db, userId, avatar);

    return db.transaction(async (tx) => {
      const events = this.services.events;
      // The people's rows before the inserts that check their keys (see manageParticipants).
      await events.lockRecipients(tx, [userId, ...participants]);
      const chatId = await this.insertGroup(tx, name, avatar, userId, isSecret);
      await tx.query('INSERT INTO chat_members (chat_id, user_id) SELECT $1, unnest($2::bigint[])', [chatId, [userId, ...participants]]);
      const views = await chatViewsFor(tx, chatId, [userId, ...participants], origin);
      const creator = await actorProfile(tx, userId);
      await events.append(tx, [userId], 'chat-created', { chat_id: chatId, user: creator, chat: memberView(views, userId) });
      for (const id of participants) {
        await events.append(tx, [id], 'invited-to-chat', { chat_id: chatId, chat: memberView(views, id), user: creator });
      }
      return views.get(userId)!;
    });
  }

  /** Renames a group or changes its avatar (null removes it); `chat-updated` to every member. */
  async edit(userId: number, chatId: number, changes: { name?: string | undefined; avatar?: string | null | undefined }, origin: string): Promise<ChatView> {
    const db = this.services.db;
    await loadActor(db, userId);
    const name = changes.name === undefined ? undefined : groupName(changes.name);
    return db.transaction(async (tx) => {
      const { members } = await this.ownedGroup(tx, userId, chatId);
      let avatar = changes.avatar === undefined ? undefined : changes.avatar || null;
      if (avatar) {
        // The picture it has already (sent back with a new name) may be a former owner's upload: unchanged, kept.
        const [current] = await tx.query<{ avatar: string | null }>('SELECT avatar FROM chats WHERE id = $1', [chatId]);
        if (current?.avatar === avatar) avatar = undefined;
        else await requireOwnImage(tx, userId, avatar);
      }
      const sets: string[] = [];
      const params: unknown[] = [chatId];
      if (name !== undefined) sets.push(`name = $${params.push(name)}`);
      if (avatar !== undefined) sets.push(`avatar = $${params.push(avatar)}`);
      if (sets.length > 0) {
        await tx.query(`UPDATE chats SET ${sets.join(', ')} WHERE id = $1`, params);
        await notifyChatUpdated(tx, this.services.events, chatId, members, origin);
      }
      return (await chatViewsFor(tx, chatId, [userId], origin)).get(userId)!;
    });
  }

  /**
   * Applies add/remove actions in order. Added people get `invited-to-chat`, removed ones `chat-deleted` (and,
   * the chat's lock ordering them after every earlier message, nothing more of it), those who stay `chat-updated`.
   */
  async manageParticipants(userId: number, chatId: number, actions: Array<{ add: boolean; participants: number[] }>, origin: string): Promise<ChatView> {
    await loadActor(this.services.db, userId);
    await this.requireUsers([...new Set(actions.filter((action) => action.add).flatMap((action) => action.participants))]);
    return this.services.db.transaction(async (tx) => {
      const { members } = await this.ownedGroup(tx, userId, chatId);
      const final = new Set(members);
      for (const action of actions) {
        for (const id of action.participants) {
          if (action.add) final.add(id);
          else if (id === userId) throw badRequest('The owner cannot be removed from their group', 'owner_cannot_be_removed');
          else final.delete(id);
        }
      }
      const added = [...final].filter((id) => !members.includes(id));
      const removed = members.filter((id) => !final.has(id));
      const stayed = members.filter((id) => final.has(id));
      if (added.length > 0 || removed.length > 0) {
        const events = this.services.events;
        // The people's rows first, in id order: the inserts below check their keys (a key-share lock on each), and
        // taking the row locks after them could deadlock with someone changing their username meanwhile.
        await events.lockRecipients(tx, [...members, ...added]);
        if (removed.length > 0) {
          await tx.query('DELETE FROM chat_members WHERE chat_id = $1 AND user_id = ANY($2::bigint[])', [chatId, removed]);
          // The group's code no longer lets them back in; the owner adding them again does.
          await tx.query(
            'INSERT INTO chat_removals (chat_id, user_id) SELECT $1, unnest($2::bigint[]) ON CONFLICT (chat_id, user_id) DO UPDATE SET removed_at = now()',
            [chatId, removed],
          );
          // Removed from the group, they are out of its call too.
          this.services.calls.whenMembersLeave(tx, chatId, removed);
        }
        if (added.length > 0) {
          await this.addMembers(tx, chatId, added);
          await tx.query('DELETE FROM chat_removals WHERE chat_id = $1 AND user_id = ANY($2::bigint[])', [chatId, added]);
        }
        const views = await chatViewsFor(tx, chatId, added, origin);
        const inviter = await actorProfile(tx, userId);
        for (const id of added) await events.append(tx, [id], 'invited-to-chat', { chat_id: chatId, chat: memberView(views, id), user: inviter });
        for (const id of removed) await events.append(tx, [id], 'chat-deleted', { chat_id: chatId });
        await notifyChatUpdated(tx, events, chatId, stayed, origin);
      }
      return (await chatViewsFor(tx, chatId, [userId], origin)).get(userId)!;
    });
  }

  /** Joins a group by its invite code: `chat-created` to the joiner, `chat-updated` to the others. */
  async join(userId: number, code: string, origin: string): Promise<ChatView> {
    const db = this.services.db;
    refuseGuests(await loadActor(db, userId));
    if (!INVITE_CODE.test(code)) throw badRequest('A chat code is C- followed by 10 letters or digits', 'invalid_code');
    const [found] = await db.query<{ id: number }>(`SELECT id FROM chats WHERE invite_code = $1 AND chat_type = 'group'`, [code]);
    if (!found) throw notFound('No chat has this code', 'chat_code_unknown');
    return db.transaction(async (tx) => {
      const chat = await lockChat(tx, found.id);
      if (!chat) throw notFound('No chat has this code', 'chat_code_unknown');
      const members = await memberIds(tx, chat.id);
      if (!members.includes(userId)) {
        const [removed] = await tx.query('SELECT 1 FROM chat_removals WHERE chat_id = $1 AND user_id = $2', [chat.id, userId]);
        if (removed) throw forbidden('The owner removed you from this group: only they can add you again', 'removed_from_chat');
        const events = this.services.events;
        await events.lockRecipients(tx, [...members, userId]);
        await this.addMembers(tx, chat.id, [userId]);
        const views = await chatViewsFor(tx, chat.id, [userId], origin);
        const joiner = await actorProfile(tx, userId);
        await events.append(tx, [userId], 'chat-created', { chat_id: chat.id, user: joiner, chat: memberView(views, userId) });
        await notifyChatUpdated(tx, events, chat.id, members, origin);
      }
      return (await chatViewsFor(tx, chat.id, [userId], origin)).get(userId)!;
    });
  }

  /**
   * The first step of the change that deletes an account: the groups it owns, then their members' rows, `alsoLock`'s
   * and the account's own, in id order — chats before people, as every writer of a chat takes them, so the change can
   * wait for a writer but never deadlock with one. `passOwnership` then hands the groups over in the same change.
   */
  async lockGroupsOwnedBy(tx: Tx, userId: number, alsoLock: readonly number[] = []): Promise<number[]> {
    const rows = await tx.query<{ id: number }>(`SELECT id FROM chats WHERE owner_id = $1 AND chat_type = 'group' ORDER BY id FOR UPDATE`, [userId]);
    const chatIds = rows.map((row) => row.id);
    const members = chatIds.length
      ? await tx.query<{ user_id: number }>('SELECT DISTINCT user_id FROM chat_members WHERE chat_id = ANY($1::bigint[])', [chatIds])
      : [];
    await this.services.events.lockRecipients(tx, [userId, ...alsoLock, ...members.map((member) => member.user_id)]);
    return chatIds;
  }

  /**
   * The groups of a deleted account (locked by `lockGroupsOwnedBy`) pass to their longest-standing member who is
   * not deleted (the earliest to join; ties by id), so someone can still rename them and manage their members;
   * `chat-updated` to every member. A group nobody else is left in keeps its owner.
   */
  async passOwnership(tx: Tx, chatIds: number[], deletedUserId: number, origin: string): Promise<void> {
    const passed = new Map<number, number[]>();
    for (const chatId of chatIds) {
      const [successor] = await tx.query<{ user_id: number }>(
        `SELECT m.user_id FROM chat_members m JOIN users u ON u.id = m.user_id
          WHERE m.chat_id = $1 AND m.user_id <> $2 AND NOT u.deleted
          ORDER BY m.joined_at, m.user_id LIMIT 1`,
        [chatId, deletedUserId],
      );
      if (!successor) continue;
      await tx.query('UPDATE chats SET owner_id = $2 WHERE id = $1', [chatId, successor.user_id]);
      passed.set(chatId, await memberIds(tx, chatId));
    }
    // Every member's row is locked already (lockGroupsOwnedBy).
    for (const [chatId, members] of passed) await notifyChatUpdated(tx, this.services.events, chatId, members, origin);
  }

  /** A group the caller is in and owns (locked): 404 for a chat they are not in, 403 if not the owner. */
  private async ownedGroup(tx: Tx, userId: number, chatId: number): Promise<{ members: number[] }> {
    const chat = await lockChat(tx, chatId);
    if (!chat) throw chatUnavailable();
    const members = await memberIds(tx, chatId);
    if (!members.includes(userId)) throw chatUnavailable();
    if (chat.chat_type !== 'group' || chat.owner_id !== userId) throw ownerOnly();
    return { members };
  }

  /**
   * New members start with everything already in the chat counted as read, so their unread count (and its exact
   * decrement when a message is deleted) covers only what is sent after they joined. Read receipts count them as
   * readers only of what comes after (`read_from_message_id`).
   */
  private async addMembers(tx: Tx, chatId: number, userIds: number[]): Promise<void> {
    await tx.query(
      `INSERT INTO chat_members (chat_id, user_id, last_read_message_id, read_from_message_id)
       SELECT $1, u, newest.id, newest.id
         FROM unnest($2::bigint[]) AS u, (SELECT coalesce(max(id), 0) AS id FROM messages WHERE chat_id = $1) AS newest
       ON CONFLICT (chat_id, user_id) DO NOTHING`,
      [chatId, userIds],
    );
  }

  private async requireUsers(ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    const rows = await this.services.db.query<{ id: number }>('SELECT id FROM users WHERE id = ANY($1::bigint[]) AND NOT deleted', [ids]);
    if (rows.length !== ids.length) throw notFound(ServerStrings.noSuchUser, 'no_such_user');
  }

  /** A new group row with a fresh unique invite code ('C-' + 10 letters or digits). */
  private async insertGroup(tx: Tx, name: string, avatar: string | null, ownerId: number, isSecret: boolean): Promise<number> {
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const [row] = await tx.query<{ id: number }>(
        `INSERT INTO chats (chat_type, is_secret, name, avatar, owner_id, invite_code) VALUES ('group', $1, $2, $3, $4, $5)
         ON CONFLICT (invite_code) DO NOTHING RETURNING id`,
        [isSecret, name, avatar, ownerId, `C-${randomCode(10)}`],
      );
      if (row) return row.id;
    }
    throw new Error('could not find a free invite code');
  }
}
