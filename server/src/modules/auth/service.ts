import type { Services } from '../../services.js';
import type { Tx } from '../../db/index.js';
import { HttpError, ServerStrings, badRequest, forbidden } from '../../http/errors.js';
import { randomCode } from '../../security/secrets.js';
import { findUserByPhone } from '../users/repository.js';
import type { UserRow } from '../users/model.js';
import { userColumns } from '../users/model.js';
import { convertInvitesOnJoin } from '../contacts/service.js';
import { Role } from '../users/actor.js';
import { OtpCodes } from './otp.js';
import { Sessions, type JwtInfo } from './sessions.js';
import { SmsDeliveryError } from './sms/provider.js';
import { requirePhone } from './phone.js';
import { StaffSignIn, signsInWithPasswords } from './staff-sign-in.js';

export { requirePhone };

/** Length of a user's invite code, the last part of `{host}/link/{code}`. */
export const INVITE_CODE_LENGTH = 10;

export interface SendCodeResult {
  is_manager: boolean;
  /** Staff with passwords: true, and no SMS was sent. */
  password_set: boolean;
  /** Seconds until another code may be asked for; absent when no code was sent. */
  resend_after?: number;
}

export interface SignInResult {
  jwt_info: JwtInfo;
  /** True when this sign-in created the account: the client then asks for a name and username. */
  is_new_user: boolean;
}

export class AuthService {
  readonly otp: OtpCodes;
  readonly sessions: Sessions;
  readonly staff: StaffSignIn;

  constructor(private readonly services: Services) {
    this.otp = new OtpCodes(services.db, services.secrets.otpKey, services.config.otp);
    this.sessions = new Sessions(services.db, services.accessTokens, services.config);
    this.staff = new StaffSignIn(services, this.sessions, (tx, user) => this.applyAdminPhone(tx, user));
  }

  /**
   * Step one of every sign-in. Staff with passwords get no SMS (they sign in with their passwords); everyone else,
   * staff whose passwords are not set yet included, gets a code.
   */
  async sendCode(rawPhone: string, ip: string): Promise<SendCodeResult> {
    const phone = requirePhone(rawPhone);
    const existing = await findUserByPhone(this.services.db, phone);
    if (existing?.blocked) throw forbidden(ServerStrings.banned, 'banned');
    const isManager = !!existing && !existing.deleted && !existing.temporary && existing.role >= Role.manager;
    if (signsInWithPasswords(existing)) return { is_manager: true, password_set: true };
    await this.deliverCode(phone, ip);
    return { is_manager: isManager, password_set: false, resend_after: this.services.config.otp.resendSeconds };
  }

  /** Makes a code for `phone` (with every limit of sign-in) and texts it; a code that cannot be sent is dropped. */
  async deliverCode(phone: string, ip: string): Promise<void> {
    const code = await this.otp.create(phone, ip);
    try {
      await this.services.sms.send(phone, `Your Messenger code: ${code}. Do not share it with anyone.`);
    } catch (error) {
      await this.otp.discard(phone, code);
      if (error instanceof SmsDeliveryError) throw new HttpError(502, 'sms_failed', 'The code could not be sent; try again');
      throw error;
    }
  }

  async signIn(rawPhone: string, code: string, inviteCode: string | undefined): Promise<SignInResult> {
    const phone = requirePhone(rawPhone);
    const codeId = await this.otp.verify(phone, code);
    return this.services.db.transaction(async (tx) => {
      // Single use, even when two correct guesses race: only one UPDATE finds it unconsumed.
      const consumed = await tx.query('UPDATE otp_codes SET consumed_at = now() WHERE id = $1 AND consumed_at IS NULL RETURNING id', [codeId]);
      if (consumed.length === 0) throw badRequest('The code was already used; ask for a new one', 'code_expired');
      let user = await findUserByPhone(tx, phone);
      const isNew = !user;
      if (!user) user = await this.createUser(tx, phone, inviteCode);
      if (user.deleted) throw forbidden(ServerStrings.noSuchUser, 'no_such_user');
      if (user.blocked) throw forbidden(ServerStrings.banned, 'banned');
      // Staff with passwords never get a code now; one sent before their passwords were set no longer opens it.
      if (signsInWithPasswords(user)) throw forbidden('Staff sign in with their passwords', 'password_sign_in_required');
      await this.applyAdminPhone(tx, user);
      const jwtInfo = await this.sessions.start(tx, user.id, user.role);
      return { jwt_info: jwtInfo, is_new_user: isNew };
    });
  }

  /** Phones listed in ADMIN_PHONES make their owner a top admin (role 3) when they sign in or verify it. */
  async applyAdminPhone(tx: Tx, user: UserRow): Promise<void> {
    if (user.phone && this.services.config.adminPhones.includes(user.phone) && user.role < Role.topAdmin) {
      await tx.query('UPDATE users SET role = $2 WHERE id = $1', [user.id, Role.topAdmin]);
      user.role = Role.topAdmin;
    }
  }

  private async createUser(tx: Tx, phone: string, inviteCode: string | undefined): Promise<UserRow> {
    const inviter = inviteCode
      ? (await tx.query<{ id: number }>('SELECT id FROM users WHERE invite_code = $1 AND NOT deleted', [inviteCode]))[0]
      : undefined;
    const [user] = await tx.query<UserRow>(
      `INSERT INTO users (phone, invite_code, invited_by) VALUES ($1, $2, $3) RETURNING ${userColumns()}`,
      [phone, randomCode(INVITE_CODE_LENGTH), inviter?.id ?? null],
    );
    await convertInvitesOnJoin(tx, this.services.events, user!);
    return user!;
  }
}

