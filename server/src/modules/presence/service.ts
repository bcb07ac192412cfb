import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/index.js';
import type { EventBus } from '../../events/bus.js';
import { notFound } from '../../http/errors.js';

export type LastSeenPrivacy = 'everyone' | 'contacts' | 'nobody';
export const LAST_SEEN_PRIVACY: LastSeenPrivacy[] = ['everyone', 'contacts', 'nobody'];

/**
 * What one person may see of another's presence: `online`, or `offline` with the exact `last_seen_at` — or, where
 * the other keeps it from them, only roughly when (`recently`: within 3 days, `within_week`, `within_month`,
 * `long_ago`), never whether they are online now.
 */
export type PresenceView = {
  user_id: number;
  status: 'online' | 'offline' | 'recently' | 'within_week' | 'within_month' | 'long_ago';
  last_seen_at: string | null;
};

/** How often a node renews the presence of the people whose sockets it holds, and how long one renewal lasts. */
const RENEW_EVERY_MS = 60_000;
const ONLINE_FOR_SECONDS = 90;
/** Changes are written and told together, at most this often: a burst of connections costs two statements. */
const FLUSH_EVERY_MS = 500;

interface SubjectRow extends Record<string, unknown> {
  id: number;
  online_until: Date | string | null;
  last_seen_at: Date | string | null;
  last_seen_privacy: LastSeenPrivacy;
  deleted: boolean;
}

const DAY_MS = 86_400_000;

/** The view `viewer` gets of `row` (`isContact`: the subject has the viewer in their contacts). */
export function presenceFor(row: SubjectRow, viewerId: number, isContact: boolean, now = Date.now()): PresenceView {
  const lastSeen = row.last_seen_at === null ? null : new Date(row.last_seen_at);
  const online = !row.deleted && row.online_until !== null && new Date(row.online_until).getTime() > now;
  const exact = viewerId === row.id || row.last_seen_privacy === 'everyone' || (row.last_seen_privacy === 'contacts' && isContact);
  if (exact && !row.deleted) {
    if (online) return { user_id: row.id, status: 'online', last_seen_at: null };
    if (lastSeen) return { user_id: row.id, status: 'offline', last_seen_at: lastSeen.toISOString() };
  }
  const ago = online ? 0 : lastSeen && !row.deleted ? now - lastSeen.getTime() : Infinity;
  const status = ago <= 3 * DAY_MS ? 'recently' : ago <= 7 * DAY_MS ? 'within_week' : ago <= 30 * DAY_MS ? 'within_month' : 'long_ago';
  return { user_id: row.id, status, last_seen_at: null };
}

/**
 * Who is online: a person is online while a live-event socket of theirs is open on some node. Each node counts
 * its own sockets per person; the first one opening and the last one closing are written (`user_presence`) and
 * told, as a live signal (no seq, never logged: only the latest matters), to those of their private-chat partners
 * whom their privacy setting lets see it — the others are not told at all (a signal's timing would say what its
 * content hides) except when the setting itself changes. Changes are gathered for half a second and written in
 * one statement, so a server restart's reconnecting crowd costs a handful of statements.
 *
 * In a cluster, one node seeing a person's last socket close marks them offline even if another node still holds
 * one of theirs; that node's next renewal (within a minute) brings them back online.
 */
export class Presence {
  private readonly sockets = new Map<number, number>();
  /** People who came online (true) or went (false) since the last flush. */
  private readonly changed = new Map<number, boolean>();
  /** People whose privacy setting changed since the last flush. */
  private readonly privacy = new Set<number>();
  private flushTimer: NodeJS.Timeout | null = null;
  private renewTimer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly bus: EventBus,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** A live-event socket of the person opened on this node. */
  opened(userId: number): void {
    const count = (this.sockets.get(userId) ?? 0) + 1;
    this.sockets.set(userId, count);
    if (count === 1) this.mark(() => this.changed.set(userId, true));
    if (!this.renewTimer && !this.stopped) {
      this.renewTimer = setInterval(() => void this.renew(), RENEW_EVERY_MS);
      this.renewTimer.unref();
    }
  }

  /** One of their live-event sockets on this node closed. */
  closed(userId: number): void {
    const count = (this.sockets.get(userId) ?? 1) - 1;
    if (count > 0) {
      this.sockets.set(userId, count);
      return;
    }
    this.sockets.delete(userId);
    this.mark(() => this.changed.set(userId, false));
  }

  /**
   * Their privacy changed: their partners are told what they may see now. Nothing is written — this node may hold
   * none of their sockets while another does.
   */
  privacyChanged(userId: number): void {
    this.mark(() => this.privacy.add(userId));
  }

  /** What `viewerId` may see of `userId`: their own, or of someone they share a chat with or have as a contact. */
  async view(viewerId: number, userId: number): Promise<PresenceView> {
    const [row] = await this.db.query<SubjectRow & { known: boolean; is_contact: boolean }>(
      `SELECT u.id, p.online_until, p.last_seen_at, u.last_seen_privacy, u.deleted,
              u.id = $2
                OR EXISTS (SELECT 1 FROM contacts k WHERE k.owner_id = $2 AND k.user_id = u.id)
                OR EXISTS (SELECT 1 FROM chat_members a JOIN chat_members b ON b.chat_id = a.chat_id
                            WHERE a.user_id = u.id AND b.user_id = $2) AS known,
              EXISTS (SELECT 1 FROM contacts k WHERE k.owner_id = u.id AND k.user_id = $2) AS is_contact
         FROM users u LEFT JOIN user_presence p ON p.user_id = u.id WHERE u.id = $1`,
      [userId, viewerId],
    );
    // Someone the viewer has nothing to do with answers like someone who does not exist.
    if (!row || !row.known) throw notFound('No such user', 'no_such_user');
    return presenceFor(row, viewerId, row.is_contact);
  }

  stop(): Promise<void> {
    this.stopped = true;
    if (this.flushTimer) clearTimeout(this.flushTimer);
    if (this.renewTimer) clearInterval(this.renewTimer);
    this.flushTimer = null;
    this.renewTimer = null;
    return this.flushing;
  }

  private mark(note: () => void): void {
    if (this.stopped) return;
    note();
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = null;
      this.flushing = this.flushing.then(() => this.flush()).catch((error: unknown) => this.log.warn({ err: error }, 'presence not written'));
    }, FLUSH_EVERY_MS);
  }

  /** Keeps the people whose sockets this node holds online for another 90 s (nobody is told: nothing changed). */
  private async renew(): Promise<void> {
    const ids = [...this.sockets.keys()];
    if (ids.length === 0 || this.stopped) return;
    await this.write(ids.map((id) => [id, true]))
      .catch((error: unknown) => this.log.warn({ err: error }, 'presence not renewed'));
  }

  /** Writes who is online (for 90 s) and who went, in id order (presence rows are locked by this alone). */
  private async write(states: Array<[number, boolean]>): Promise<void> {
    states.sort((a, b) => a[0] - b[0]);
    await this.db.query(
      `INSERT INTO user_presence (user_id, online_until, last_seen_at)
       SELECT v.id, CASE WHEN v.online THEN now() + make_interval(secs => $3) END, now()
         FROM unnest($1::bigint[], $2::boolean[]) WITH ORDINALITY AS v(id, online, position)
         JOIN users u ON u.id = v.id
        ORDER BY v.position
       ON CONFLICT (user_id) DO UPDATE SET online_until = excluded.online_until, last_seen_at = excluded.last_seen_at`,
      [states.map(([id]) => id), states.map(([, online]) => online), ONLINE_FOR_SECONDS],
    );
  }

  private async flush(): Promise<void> {
    const states = [...this.changed];
    const privacy = new Set(this.privacy);
    this.changed.clear();
    this.privacy.clear();
    if (states.length > 0) await this.write(states);
    const ids = [...new Set([...states.map(([id]) => id), ...privacy])];
    if (ids.length === 0) return;
    const subjects = await this.db.query<SubjectRow>(
      `SELECT u.id, p.online_until, p.last_seen_at, u.last_seen_privacy, u.deleted
         FROM users u LEFT JOIN user_presence p ON p.user_id = u.id WHERE u.id = ANY($1::bigint[])`,
      [ids],
    );
    if (subjects.length === 0) return;
    // Everyone with a private chat with one of them, and whether the subject has that person as a contact.
    const partners = await this.db.query<{ subject: number; partner: number; is_contact: boolean }>(
      `SELECT o.user_id AS subject, m.user_id AS partner,
              EXISTS (SELECT 1 FROM contacts k WHERE k.owner_id = o.user_id AND k.user_id = m.user_id) AS is_contact
         FROM chat_members o
         JOIN chats c ON c.id = o.chat_id AND c.chat_type = 'private'
         JOIN chat_members m ON m.chat_id = o.chat_id AND m.user_id <> o.user_id
        WHERE o.user_id = ANY($1::bigint[])`,
      [subjects.map((row) => row.id)],
    );
    const byId = new Map(subjects.map((row) => [Number(row.id), { ...row, id: Number(row.id) }]));
    for (const { subject, partner, is_contact: isContact } of partners) {
      const row = byId.get(Number(subject));
      if (!row) continue;
      const allowed = row.last_seen_privacy === 'everyone' || (row.last_seen_privacy === 'contacts' && isContact);
      // Someone kept from it hears nothing of comings and goings, only that the setting changed.
      if (!allowed && !privacy.has(row.id)) continue;
      this.bus.signal(Number(partner), { event_type: 'presence', additional_info: presenceFor(row, Number(partner), isContact) });
    }
  }
}
