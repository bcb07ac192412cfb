import type { FastifyBaseLogger } from 'fastify';
// Loaded on the first push only (it brings asn1.js and jws): a server nobody subscribes to never pays for it.
import type { generateRequestDetails } from 'web-push';
import type { Db } from '../../db/index.js';
import type { MessageView } from '../chats/model.js';
import type { PublicUserView } from '../users/model.js';
import { endpointHost } from './endpoints.js';
import type { VapidKeys } from './vapid.js';

/** A message the writer committed, with who it went to. */
export interface StoredMessage {
  message: MessageView;
  sender: PublicUserView;
  members: number[];
}

/** A call that started ringing, and who it rings. */
export interface RingingCall {
  chatId: number;
  callId: number;
  caller: PublicUserView;
  callees: number[];
}

/** What the service worker receives (docs/protocol.md, "Push"): facts, which it words in the person's language. */
export type PushPayload =
  | {
      kind: 'message';
      chat_id: number;
      message_id: number;
      /** The sender as the recipient knows them (their contact name first); null: nameless. */
      sender: string | null;
      /** The group's name; null in a private chat. */
      group: string | null;
      /** Null when it must not be shown (private notifications, a secret chat) or there is none (a file). */
      text: string | null;
      mention: boolean;
      silent: boolean;
      language: string;
    }
  | {
      /** `call` while it rings; `call-missed` replaces it (same tag, same topic) once it stopped unanswered. */
      kind: 'call' | 'call-missed';
      chat_id: number;
      call_id: number;
      caller: string | null;
      group: string | null;
      silent: boolean;
      language: string;
    };

interface TargetRow extends Record<string, unknown> {
  id: number;
  user_id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  language: string;
  failures: number;
  sound_notifications: boolean;
  private_notifications: boolean;
  chat_id: number;
  notifications: boolean;
  chat_type: 'private' | 'group';
  chat_name: string;
  is_secret: boolean;
}

interface Delivery {
  target: TargetRow;
  payload: PushPayload;
  /** Seconds the push service keeps it for an unreachable device: a ring is worthless once the call stopped. */
  ttl: number;
  /** Pushes of one topic replace each other while waiting at the push service (one per chat, one per call). */
  topic: string;
}

/** A text longer than this is cut: a notification shows two lines, and a push payload must stay under 4 KB. */
const TEXT_PREVIEW = 180;
const MESSAGE_TTL_SECONDS = 24 * 60 * 60;
/** Posts in flight at once, and to one push service's host: one that is slow holds up only its own. */
const CONCURRENT_SENDS = 8;
const CONCURRENT_SENDS_PER_HOST = 2;
/** Pushes waiting beyond this are dropped (a push service that hangs must not grow the server's memory). */
const MAX_WAITING = 10_000;
const SEND_TIMEOUT_MS = 10_000;
/** Pushes in a row a subscription's push service did not take (unreachable, 5xx) before the subscription goes. */
const MAX_FAILURES = 5;
/** How long "nobody has subscribed" is believed before the database is asked again (a cluster's other nodes). */
const NOBODY_CHECK_MS = 10_000;

type WebPush = { generateRequestDetails: typeof generateRequestDetails };

/**
 * Web Push for people whose app is closed. After a commit it looks at the recipients with no live socket (here,
 * and in a cluster on any node), finds their browsers' subscriptions with one query — only of logins still
 * signed in, with notifications on and the chat not muted (a mention still gets through a mute, as in the app)
 * — and posts an encrypted payload (RFC 8291, signed with VAPID, RFC 8292) to each browser's push service.
 * Nothing here is on the send path: the sender was answered at COMMIT. While nobody at all has subscribed, it
 * asks the database nothing.
 */
export class PushNotifier {
  /** Pushes waiting, by the push service's host they go to. */
  private readonly waiting = new Map<string, Delivery[]>();
  private waitingCount = 0;
  private readonly sendingTo = new Map<string, number>();
  private sending = 0;
  private webPush: Promise<WebPush> | null = null;
  private dropped = 0;
  /** Lookups of whom to push under way. */
  private lookups = 0;
  /** Whether anybody has a subscription: unknown (null), or as last seen, and when. */
  private anybody: { value: boolean; at: number } | null = null;

  constructor(
    private readonly db: Db,
    readonly keys: VapidKeys,
    private readonly options: {
      subject: string;
      /** Whether the person has a live socket on this node. */
      onlineHere: (userId: number) => boolean;
      /** Other nodes hold sockets too: the database says who is online anywhere. */
      clustered: boolean;
      /** How long a call rings (CALL_RING_SECONDS): a ring kept longer at the push service would be stale. */
      ringSeconds: number;
    },
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Messages the writer committed: their recipients who are not online hear of them by push. */
  messagesStored(stored: StoredMessage[]): void {
    const byRecipient = new Map<number, MessageView[]>();
    for (const { message, members } of stored) {
      for (const member of members) {
        if (member === message.sender_id || this.options.onlineHere(member)) continue;
        let list = byRecipient.get(member);
        if (!list) byRecipient.set(member, (list = []));
        list.push(message);
      }
    }
    if (byRecipient.size === 0) return;
    const senders = new Map(stored.map(({ sender }) => [sender.id, sender]));
    this.run(this.pushMessages(byRecipient, senders), 'message pushes not sent');
  }

  /** A call rings: its callees who are not online get a push that opens the chat. */
  callRinging(call: RingingCall): void {
    this.callPush(call, 'call');
  }

  /** A call stopped ringing with nobody answering: the ring on their devices turns into a missed call. */
  callMissed(call: RingingCall): void {
    this.callPush(call, 'call-missed');
  }

  /** A subscription was saved (on this node): pushes are worth looking up again. */
  subscribed(): void {
    this.anybody = { value: true, at: Date.now() };
  }

  private callPush(call: RingingCall, kind: 'call' | 'call-missed'): void {
    const callees = call.callees.filter((id) => id !== call.caller.id && !this.options.onlineHere(id));
    if (callees.length === 0) return;
    this.run(this.pushCall(call, callees, kind), 'call pushes not sent');
  }

  private run(work: Promise<void>, failure: string): void {
    this.lookups += 1;
    work
      .catch((error: unknown) => this.log.warn({ err: error }, failure))
      .finally(() => {
        this.lookups -= 1;
      });
  }

  /** False only when nobody has subscribed at all (checked again every few seconds): the common case of a bench. */
  private async anybodySubscribed(): Promise<boolean> {
    if (this.anybody && (this.anybody.value || Date.now() - this.anybody.at < NOBODY_CHECK_MS)) return this.anybody.value;
    const [row] = await this.db.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM push_subscriptions) AS any');
    this.anybody = { value: Boolean(row?.any), at: Date.now() };
    return this.anybody.value;
  }

  private async pushMessages(byRecipient: Map<number, MessageView[]>, senders: Map<number, PublicUserView>): Promise<void> {
    if (!(await this.anybodySubscribed())) return;
    const chatIds = [...new Set([...byRecipient.values()].flat().map((message) => message.chat_id))];
    const targets = await this.targets([...byRecipient.keys()], chatIds);
    if (targets.length === 0) return;
    const aliases = await this.aliases(targets, [...senders.keys()]);
    for (const target of targets) {
      // The newest message of the chat in this batch that this person is to hear of: one notification per chat.
      const messages = byRecipient.get(Number(target.user_id))!.filter((message) => message.chat_id === Number(target.chat_id));
      const audible = messages.filter((message) => target.notifications || message.mentions.includes(Number(target.user_id)));
      const message = audible.at(-1);
      if (!message) continue;
      // A message that deletes itself must not outlive itself on a lock screen: it waits at the push service
      // only while it exists, and its text never leaves the server.
      const lifetime = message.expires_at === null ? MESSAGE_TTL_SECONDS : Math.floor((Date.parse(message.expires_at) - Date.now()) / 1000);
      if (lifetime <= 0) continue;
      const sender = senders.get(message.sender_id);
      const hidden = target.private_notifications || target.is_secret || message.expires_at !== null || !message.text;
      this.enqueue({
        target,
        ttl: Math.min(lifetime, MESSAGE_TTL_SECONDS),
        topic: `chat${target.chat_id}`,
        payload: {
          kind: 'message',
          chat_id: message.chat_id,
          message_id: message.id,
          sender: sender ? nameOf(sender, aliases.get(`${target.user_id}:${sender.id}`)) : null,
          group: groupName(target),
          text: hidden ? null : preview(message.text),
          mention: message.mentions.includes(Number(target.user_id)),
          silent: !target.sound_notifications,
          language: target.language,
        },
      });
    }
  }

  private async pushCall(call: RingingCall, callees: number[], kind: 'call' | 'call-missed'): Promise<void> {
    if (!(await this.anybodySubscribed())) return;
    const targets = (await this.targets(callees, [call.chatId])).filter((target) => target.notifications);
    if (targets.length === 0) return;
    const aliases = await this.aliases(targets, [call.caller.id]);
    for (const target of targets) {
      this.enqueue({
        target,
        ttl: kind === 'call' ? this.options.ringSeconds : MESSAGE_TTL_SECONDS,
        topic: `call${call.callId}`,
        payload: {
          kind,
          chat_id: call.chatId,
          call_id: call.callId,
          caller: nameOf(call.caller, aliases.get(`${target.user_id}:${call.caller.id}`)),
          group: groupName(target),
          silent: !target.sound_notifications,
          language: target.language,
        },
      });
    }
  }

  /**
   * The subscriptions of these people that may be pushed to, one row per (subscription, chat of `chatIds` they
   * are in): a live login (signed out or expired logins get nothing), notifications on, not blocked or deleted,
   * and — in a cluster — nobody online on another node.
   */
  private targets(userIds: number[], chatIds: number[]): Promise<TargetRow[]> {
    return this.db.query<TargetRow>(
      `SELECT s.id, s.user_id, s.endpoint, s.p256dh, s.auth, s.language, s.failures, u.sound_notifications, u.private_notifications,
              m.chat_id, m.notifications, c.chat_type, c.name AS chat_name, c.is_secret
         FROM push_subscriptions s
         JOIN users u ON u.id = s.user_id AND u.popup_notifications AND NOT u.blocked AND NOT u.deleted
         JOIN chat_members m ON m.user_id = s.user_id AND m.chat_id = ANY($2::bigint[])
         JOIN chats c ON c.id = m.chat_id
        WHERE s.user_id = ANY($1::bigint[])
          AND EXISTS (SELECT 1 FROM refresh_tokens t
                       WHERE t.family_id = s.login_id AND t.revoked_at IS NULL AND t.expires_at > now())
          ${this.options.clustered ? 'AND NOT EXISTS (SELECT 1 FROM user_presence p WHERE p.user_id = s.user_id AND p.online_until > now())' : ''}`,
      [userIds, chatIds],
    );
  }

  /** The names recipients gave these people in their contacts, by `recipient:person`. */
  private async aliases(targets: TargetRow[], people: number[]): Promise<Map<string, string>> {
    const rows = await this.db.query<{ owner_id: number; user_id: number; alias_name: string }>(
      `SELECT owner_id, user_id, alias_name FROM contacts
        WHERE owner_id = ANY($1::bigint[]) AND user_id = ANY($2::bigint[]) AND alias_name <> ''`,
      [[...new Set(targets.map((target) => Number(target.user_id)))], people],
    );
    return new Map(rows.map((row) => [`${row.owner_id}:${row.user_id}`, row.alias_name]));
  }

  private enqueue(delivery: Delivery): void {
    if (this.waitingCount >= MAX_WAITING) {
      if (this.dropped++ % 1000 === 0) this.log.warn({ dropped: this.dropped }, 'push queue full: pushes dropped');
      return;
    }
    const host = endpointHost(delivery.target.endpoint);
    let queue = this.waiting.get(host);
    if (!queue) this.waiting.set(host, (queue = []));
    queue.push(delivery);
    this.waitingCount += 1;
    this.pump();
  }

  /** Starts what may start: up to the overall limit, each host up to its own, hosts taking turns. */
  private pump(): void {
    let started = true;
    while (started && this.sending < CONCURRENT_SENDS) {
      started = false;
      for (const [host, queue] of this.waiting) {
        if (this.sending >= CONCURRENT_SENDS) break;
        if ((this.sendingTo.get(host) ?? 0) >= CONCURRENT_SENDS_PER_HOST) continue;
        const delivery = queue.shift()!;
        if (queue.length === 0) this.waiting.delete(host);
        this.waitingCount -= 1;
        this.sending += 1;
        this.sendingTo.set(host, (this.sendingTo.get(host) ?? 0) + 1);
        started = true;
        void this.send(delivery)
          .catch(async (error: unknown) => {
            this.log.warn({ err: error, host }, 'push not sent');
            await this.failed(delivery.target).catch(() => undefined);
          })
          .finally(() => {
            this.sending -= 1;
            const left = (this.sendingTo.get(host) ?? 1) - 1;
            if (left > 0) this.sendingTo.set(host, left);
            else this.sendingTo.delete(host);
            this.pump();
          });
      }
    }
  }

  private async send({ target, payload, ttl, topic }: Delivery): Promise<void> {
    this.webPush ??= import('web-push').then((module): WebPush => module.default);
    const webPush = await this.webPush;
    const request = webPush.generateRequestDetails(
      { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
      JSON.stringify(payload),
      {
        vapidDetails: { subject: this.options.subject, publicKey: this.keys.publicKey, privateKey: this.keys.privateKey },
        TTL: ttl,
        topic,
        urgency: 'high',
        contentEncoding: 'aes128gcm',
      },
    );
    const headers = Object.fromEntries(
      Object.entries(request.headers)
        .filter(([name]) => name.toLowerCase() !== 'content-length')
        .map(([name, value]) => [name, String(value)]),
    );
    const response = await fetch(request.endpoint, {
      method: request.method,
      headers,
      body: request.body ?? null,
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      redirect: 'error',
    });
    await response.body?.cancel();
    if (response.ok) {
      if (target.failures > 0) await this.db.query('UPDATE push_subscriptions SET failures = 0 WHERE id = $1', [target.id]);
    } else if (response.status === 429 || response.status >= 500) {
      this.log.warn({ status: response.status, host: endpointHost(target.endpoint) }, 'the push service did not take a push');
      await this.failed(target);
    } else if (response.status !== 413) {
      // 404/410: the browser dropped the subscription (uninstalled, cleared, expired); 400/401/403: the push
      // service will never take pushes for it. Either way it goes. (413 would be ours: a payload too big.)
      await this.db.query('DELETE FROM push_subscriptions WHERE id = $1', [target.id]);
    } else {
      this.log.error({ host: endpointHost(target.endpoint) }, 'a push payload was too large');
    }
  }

  /** A push its service did not take: a subscription that keeps failing goes. */
  private async failed(target: TargetRow): Promise<void> {
    await this.db.query(
      `WITH counted AS (UPDATE push_subscriptions SET failures = failures + 1 WHERE id = $1 RETURNING id, failures)
       DELETE FROM push_subscriptions WHERE id IN (SELECT id FROM counted WHERE failures >= $2)`,
      [target.id, MAX_FAILURES],
    );
  }

  /** Whether every push handed over so far has been sent (tests wait on it). */
  get idle(): boolean {
    return this.lookups === 0 && this.waitingCount === 0 && this.sending === 0;
  }
}

function nameOf(person: PublicUserView, alias: string | undefined): string | null {
  return alias?.trim() || person.name.trim() || person.username || null;
}

function groupName(target: TargetRow): string | null {
  return target.chat_type === 'group' ? target.chat_name.trim() || null : null;
}

function preview(text: string): string {
  const chars = [...text];
  return chars.length <= TEXT_PREVIEW ? text : `${chars.slice(0, TEXT_PREVIEW).join('')}…`;
}

/** Subscriptions of logins that ended without a sign-out (expired, or revoked for a reused refresh token). */
export async function pruneSubscriptions(db: Db): Promise<void> {
  await db.query(
    `DELETE FROM push_subscriptions s
      WHERE NOT EXISTS (SELECT 1 FROM refresh_tokens t WHERE t.family_id = s.login_id AND t.revoked_at IS NULL AND t.expires_at > now())`,
  );
}
