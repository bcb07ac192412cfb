import type { Services } from '../../services.js';
import type { Tx } from '../../db/index.js';
import { ServerStrings, badRequest, conflict, forbidden, notFound, tooManyRequests } from '../../http/errors.js';
import { randomCode } from '../../security/secrets.js';
import { AuthService, INVITE_CODE_LENGTH, requirePhone } from '../auth/service.js';
import type { JwtInfo } from '../auth/sessions.js';
import { signsInWithPasswords } from '../auth/staff-sign-in.js';
import { lockForPhoneChange, phoneChanged } from '../contacts/service.js';
import { tellContactChanged } from '../contacts/events.js';
import { ChatsService, openPrivateChat } from '../chats/service.js';
import type { ChatView } from '../chats/model.js';
import { findUserById, findUserByPhone } from './repository.js';
import { type MeView, type UserRow, toMe, userColumns } from './model.js';
import { loadActor } from './actor.js';
import { mergeGuestInto } from './merge.js';
import { authenticate } from '../../http/auth-hook.js';

const phoneTaken = () => conflict('This phone number belongs to another account', 'phone_taken');

export type LinkResult = { chat: ChatView } | { jwt_info: JwtInfo; chat: ChatView; is_new_user: true };

/**
 * Invite links and guests. Following someone's link opens a private chat with them; a visitor who is not
 * signed in gets a guest account (temporary, no phone) for it. A guest becomes a full user by verifying a phone
 * number — or, when that number already has an account, is folded into it.
 */
export class GuestsService {
  private readonly auth: AuthService;
  private readonly chats: ChatsService;

  constructor(private readonly services: Services) {
    this.auth = new AuthService(services);
    this.chats = new ChatsService(services);
  }

  /**
   * `POST /user/link?code=`. `accessToken` is the caller's bearer token when they sent one: a signed-in caller
   * gets the chat with the inviter (who becomes their contact); without one a guest is made (at most
   * `guestsPerIpPerHour` per address).
   */
  async followLink(code: string, accessToken: string | undefined, ip: string, origin: string): Promise<LinkResult> {
    const { db, events } = this.services;
    const caller = accessToken === undefined ? null : await authenticate(this.services, accessToken);
    const [inviter] = await db.query<{ id: number; alias: string }>(
      `SELECT id, coalesce(nullif(name, ''), username, '') AS alias FROM users
        WHERE invite_code = $1 AND NOT deleted AND NOT blocked AND NOT temporary`,
      [code],
    );
    if (!inviter) throw notFound('This invite link is not valid', 'invite_unknown');

    if (caller !== null) {
      const me = caller.id;
      if (me === inviter.id) throw badRequest('This is your own invite link', 'chat_with_self');
      const chatId = await db.transaction(async (tx) => {
        const { chatId: id } = await openPrivateChat(tx, events, me, inviter.id);
        // Their other tabs (and the contacts list here, which the chat's answer does not carry) learn of it.
        if (await addInviterContact(tx, me, inviter)) await tellContactChanged(tx, events, caller, inviter.id, 'contact-added');
        return id;
      });
      return { chat: await this.chats.get(me, chatId, origin) };
    }

    const limit = this.services.config.guestsPerIpPerHour;
    const made = await db.transaction(async (tx) => {
      // One address at a time, so parallel requests cannot slip past the count.
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`guest:${ip}`]);
      const [recent] = await tx.query<{ count: number; oldest_age: number | null }>(
        `SELECT count(*) AS count, EXTRACT(EPOCH FROM now() - min(created_at))::float8 AS oldest_age
           FROM guest_signups WHERE ip = $1 AND created_at > now() - interval '1 hour'`,
        [ip],
      );
      if ((recent?.count ?? 0) >= limit) {
        throw tooManyRequests('Too many guest accounts from this address; try again later', 3600 - (recent?.oldest_age ?? 0), 'guest_limit');
      }
      await tx.query('INSERT INTO guest_signups (ip) VALUES ($1)', [ip]);
      const [guest] = await tx.query<{ id: number }>(
        `INSERT INTO users (temporary, invite_code, invited_by) VALUES (true, $1, $2) RETURNING id`,
        [randomCode(INVITE_CODE_LENGTH), inviter.id],
      );
      const { chatId } = await openPrivateChat(tx, events, guest!.id, inviter.id);
      await addInviterContact(tx, guest!.id, inviter);
      const jwtInfo = await this.auth.sessions.start(tx, guest!.id, 0);
      return { guestId: guest!.id, chatId, jwtInfo };
    });
    return { jwt_info: made.jwtInfo, chat: await this.chats.get(made.guestId, made.chatId, origin), is_new_user: true };
  }

  /** `PUT /user/phone`: texts a code to the number (every limit of sign-in applies). */
  async requestPhone(userId: number, rawPhone: string, ip: string): Promise<{ sent: true; resend_after: number }> {
    await loadActor(this.services.db, userId);
    const phone = requirePhone(rawPhone);
    const existing = await findUserByPhone(this.services.db, phone);
    if (existing?.blocked) throw forbidden(ServerStrings.banned, 'banned');
    // A staff account with passwords is never reached by SMS (it would open the account without them).
    if (existing && signsInWithPasswords(existing) && existing.id !== userId) throw phoneTaken();
    await this.auth.deliverCode(phone, ip);
    return { sent: true, resend_after: this.services.config.otp.resendSeconds };
  }

  /**
   * `PUT /user/phone/verify`. A guest whose number has no account becomes a full user with it; a guest whose
   * number has an account is folded into that account (see mergeGuestInto) and gets its tokens; a full user
   * changes their number (409 `phone_taken` when it is someone else's).
   */
  async verifyPhone(userId: number, rawPhone: string, code: string, origin: string): Promise<{ user: MeView; jwt_info: JwtInfo }> {
    const { db, events } = this.services;
    await loadActor(db, userId);
    const phone = requirePhone(rawPhone);
    const codeId = await this.auth.otp.verify(phone, code);
    const result = await db.transaction(async (tx) => {
      const consumed = await tx.query('UPDATE otp_codes SET consumed_at = now() WHERE id = $1 AND consumed_at IS NULL RETURNING id', [codeId]);
      if (consumed.length === 0) throw badRequest('The code was already used; ask for a new one', 'code_expired');
      // No row lock here: locks go chats first, then people (see lockChat); the merge takes the chats' locks.
      const [me] = await tx.query<UserRow>(`SELECT ${userColumns()} FROM users WHERE id = $1`, [userId]);
      if (!me || me.deleted) throw notFound(ServerStrings.noSuchUser, 'no_such_user');
      const existing = await findUserByPhone(tx, phone);

      if (existing && existing.id !== me.id) {
        if (!me.temporary || signsInWithPasswords(existing)) throw phoneTaken();
        if (existing.deleted) throw forbidden(ServerStrings.noSuchUser, 'no_such_user');
        if (existing.blocked) throw forbidden(ServerStrings.banned, 'banned');
        await mergeGuestInto(tx, events, this.services.sockets, me.id, existing.id, origin, this.services.calls);
        await this.auth.applyAdminPhone(tx, existing);
        return { userId: existing.id, jwtInfo: await this.auth.sessions.start(tx, existing.id, existing.role) };
      }
      if (!existing) {
        await lockForPhoneChange(tx, events, me.id, phone);
        const [updated] = await tx.query<UserRow>(
          `UPDATE users SET phone = $2, temporary = false WHERE id = $1 RETURNING ${userColumns()}`,
          [me.id, phone],
        );
        await phoneChanged(tx, events, updated!);
        await this.auth.applyAdminPhone(tx, updated!);
        me.role = updated!.role;
      }
      return { userId: me.id, jwtInfo: await this.auth.sessions.start(tx, me.id, me.role) };
    });
    const user = await findUserById(db, result.userId);
    return { user: toMe(user!, origin), jwt_info: result.jwtInfo };
  }
}

/** The inviter becomes the follower's contact under the inviter's own name (an existing contact is kept). */
/** Whether the inviter is a new contact (not one already). */
async function addInviterContact(tx: Tx, ownerId: number, inviter: { id: number; alias: string }): Promise<boolean> {
  const added = await tx.query(
    `INSERT INTO contacts (owner_id, user_id, alias_name) VALUES ($1, $2, $3) ON CONFLICT (owner_id, user_id) DO NOTHING RETURNING user_id`,
    [ownerId, inviter.id, inviter.alias],
  );
  return added.length > 0;
}
