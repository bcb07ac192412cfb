import { randomUUID } from 'node:crypto';
import type { Db, Tx } from '../../db/index.js';
import type { EventBus } from '../../events/bus.js';
import type { StoredMessage } from '../push/notifier.js';
import { HttpError, ServerStrings, badRequest, forbidden, notFound } from '../../http/errors.js';
import { characterCount } from '../../http/text.js';
import { chatUnavailable } from '../chats/repository.js';
import { checkEventPayload } from '../../events/contract.js';
import {
  MESSAGE_FIELDS,
  MESSAGE_FROM,
  MESSAGE_SELECT,
  type FileInfo,
  type MessageMeta,
  type MessageType,
  type MessageRow,
  type MessageView,
  type ReplySnapshot,
  toMessage,
} from '../chats/model.js';
import { toPublic, userColumns, type PublicUserView, type UserRow } from '../users/model.js';
import { TEXT_MAX, type SendInput, type SendResult, type SendableType } from './send-input.js';

/** Most sends written in one transaction; more wait for the next one. */
const MAX_BATCH = 500;
/** PostgreSQL's codes for a transaction that lost a race and may simply run again (deadlock, serialization). */
const RETRYABLE = new Set(['40P01', '40001']);
const MAX_ATTEMPTS = 3;

/** The MIME family each file-carrying type requires; `document` takes anything. */
const TYPE_FAMILY: Partial<Record<SendableType, string>> = { image: 'image/', audio: 'audio/', video: 'video/' };

/**
 * A message the server writes itself as part of another change (a call's `call` message): no client sends it, its
 * sender's own permission was the change's to check, and its event may have a type and fields of its own.
 */
export interface InternalMessage {
  type: 'call';
  meta: MessageMeta;
  /** The event every member gets for it (`call`, or `hang` for a call that was busy at once). */
  eventType: 'call' | 'hang';
  /** What the event carries besides the chat, the message and its sender. */
  extra: Record<string, unknown>;
}

interface Pending {
  senderId: number;
  input: SendInput;
  internal?: InternalMessage;
  resolve: (result: SendResult) => void;
  reject: (error: unknown) => void;
}

/** A send that passed its checks, ready to be inserted. */
interface Prepared {
  pending: Pending;
  chatId: number;
  type: MessageType;
  text: string;
  file: FileInfo | null;
  meta: MessageMeta;
  reply: ReplySnapshot | null;
  forwardedFrom: { user_id: number; name: string } | null;
  intervalSeconds: number;
  members: number[];
  sender: PublicUserView;
  /** Members it mentions by @username (groups only); filled in once for the whole batch. */
  mentions: number[];
}

interface Outcome {
  pending: Pending;
  /** The stored message when this send created it. */
  created?: MessageView;
  /** The same, serialized (the events carry it; the sender's acknowledgement reuses it). */
  createdJson?: string;
  /** Why it was refused (the send may still have been stored before: a retry). */
  error?: unknown;
}

/** `@name` at the start or after a space or punctuation (not inside an e-mail address); usernames as §5 allows. */
const MENTION = /(?<![\w@.])@([A-Za-z][A-Za-z0-9_]{2,59})(?![A-Za-z0-9_])/g;

interface ChatState {
  id: number;
  type: 'private' | 'group';
  interval: number;
  members: number[];
}

interface InsertedRow extends Record<string, unknown> {
  id: number;
  sender_id: number;
  client_id: string;
  created_at: Date | string;
  expires_at: Date | string | null;
}

interface FileLookup extends Record<string, unknown> {
  path: string;
  owner_id: number;
  original_name: string;
  mime: string;
  size: number;
}

/** Whether this person may write to chats at all (a send, or a typing signal): throws the refusal a send gets. */
export function checkMaySend(sender: Pick<UserRow, 'deleted' | 'blocked' | 'is_muted'> | undefined): asserts sender {
  if (!sender || sender.deleted) throw forbidden(ServerStrings.noSuchUser, 'no_such_user');
  if (sender.blocked) throw forbidden(ServerStrings.banned, 'banned');
  if (sender.is_muted) throw forbidden(ServerStrings.muted, 'muted');
}

/**
 * Writes messages in batches (group commit). Sends that arrive while a batch is being written wait for the next
 * one, so under load one transaction carries many messages, and at rest a send is written at once (no timer).
 * Per batch, whatever it holds:
 *
 * 1. the chats it touches are locked (in id order) and read with their members, together with the senders;
 * 2. every send is checked on its own — sender, membership, text, file, reply, forward — and a refused one fails
 *    alone, the others go on (files, replies and forwards are read in one query each, only when present);
 * 3. one multi-row INSERT stores them (`ON CONFLICT (sender_id, client_id) DO NOTHING` keeps retries idempotent);
 * 4. one statement updates each chat's last message and every member's unread count;
 * 5. one statement locks the recipients in id order, reserves each one's seq range and inserts all events;
 * 6. COMMIT; then each send is answered in the order it came, and the events ring their sockets, each payload
 *    serialized once however many people receive it.
 *
 * The guarantees of docs/delivery.md hold as with one transaction per message: an answer only after COMMIT,
 * idempotent client ids, a gapless seq per person (reserved under the person's row lock), each sender's order.
 */
export class MessageWriter {
  /** What has been written: transactions committed and messages stored (figures for tests and benchmarks). */
  readonly stats = { batches: 0, messages: 0 };
  private queue: Pending[] = [];
  private running = false;
  private scheduled = false;

  constructor(
    private readonly db: Db,
    private readonly bus: EventBus,
    /** Told of every committed message after its events rang (Web Push for those not online). */
    private readonly onStored: (stored: StoredMessage[]) => void = () => undefined,
    /** Test runs: every event payload is checked against the contract before it is logged (events/contract.ts). */
    private readonly checkPayloads = false,
  ) {}

  /**
   * Writes a message the server makes itself (a call's message) inside another change's transaction, through the
   * same steps as every send — membership, the chat's auto-delete time, last message, unread counts and read
   * marks, events — so there is one rule for all of them. Its events ring once that transaction commits.
   */
  async writeWithin(tx: Tx, senderId: number, chatId: number, internal: InternalMessage): Promise<MessageView> {
    const pending: Pending = { senderId, input: { chat_id: chatId, client_id: randomUUID() }, internal, resolve: () => undefined, reject: () => undefined };
    const { outcomes, publish } = await this.writeBatch(tx, [pending]);
    const created = outcomes[0]?.created;
    if (!created) throw outcomes[0]?.error ?? new Error('the message was not written');
    tx.afterCommit(publish);
    return created;
  }

  /** Queues a send; resolves after the batch holding it commits (or rejects with why it was refused). */
  submit(senderId: number, input: SendInput): Promise<SendResult> {
    return new Promise<SendResult>((resolve, reject) => {
      this.queue.push({ senderId, input, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.running || this.scheduled) return;
    this.scheduled = true;
    // Whatever else arrived in this turn of the event loop joins the batch.
    setImmediate(() => {
      this.scheduled = false;
      void this.drain();
    });
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.queue.length > 0) await this.write(this.queue.splice(0, MAX_BATCH));
    } finally {
      this.running = false;
    }
  }

  /** One batch: written together; if the database fails it as a whole, each send is written alone. */
  private async write(batch: Pending[]): Promise<void> {
    // A send repeated within one batch (a quick retry) follows the first one with its client id.
    const firsts = new Map<string, Pending>();
    const followers = new Map<Pending, Pending[]>();
    const unique: Pending[] = [];
    for (const pending of batch) {
      const key = `${pending.senderId}:${pending.input.client_id}`;
      const first = firsts.get(key);
      if (first) followers.get(first)!.push(pending);
      else {
        firsts.set(key, pending);
        followers.set(pending, []);
        unique.push(pending);
      }
    }
    let outcomes: Outcome[];
    try {
      outcomes = await this.writeWithRetries(unique);
    } catch (error) {
      if (unique.length === 1) outcomes = [{ pending: unique[0]!, error }];
      else {
        // Something the checks could not foresee (a file deleted meanwhile…): find the one it was.
        outcomes = [];
        for (const pending of unique) {
          try {
            outcomes.push(...(await this.writeWithRetries([pending])));
          } catch (alone) {
            outcomes.push({ pending, error: alone });
          }
        }
      }
    }
    await this.answer(outcomes, followers);
  }

  private async writeWithRetries(batch: Pending[]): Promise<Outcome[]> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        let publish: () => void = () => undefined;
        const outcomes = await this.db.transaction(
          async (tx) => {
            const written = await this.writeBatch(tx, batch);
            publish = written.publish;
            return written.outcomes;
          },
          // Its statements look rows up by key: one plan serves every batch (PostgreSQL re-planned them each time).
          { genericPlans: true },
        );
        publish();
        this.stats.batches += 1;
        this.stats.messages += outcomes.filter((outcome) => outcome.created !== undefined).length;
        return outcomes;
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (attempt >= MAX_ATTEMPTS || typeof code !== 'string' || !RETRYABLE.has(code)) throw error;
      }
    }
  }

  /**
   * Answers every send of the batch in the order they came. A refused send whose client id is already stored
   * (a retry of something that went through before) gets the stored message back, as if it had been accepted.
   */
  private async answer(outcomes: Outcome[], followers: Map<Pending, Pending[]>): Promise<void> {
    const refused = outcomes.filter((outcome) => outcome.created === undefined);
    const stored = new Map<string, MessageView>();
    if (refused.length > 0) {
      const rows = await this.db
        .query<MessageRow>(
          `${MESSAGE_SELECT} WHERE (msg.sender_id, msg.client_id) IN (SELECT * FROM unnest($1::bigint[], $2::uuid[]))`,
          [refused.map((outcome) => outcome.pending.senderId), refused.map((outcome) => outcome.pending.input.client_id)],
        )
        .catch(() => [] as MessageRow[]);
      for (const row of rows) stored.set(`${row.sender_id}:${row.client_id}`, toMessage(row));
    }
    const byPending = new Map(outcomes.map((outcome) => [outcome.pending, outcome]));
    for (const [first, repeats] of followers) {
      const outcome = byPending.get(first)!;
      const before = stored.get(`${first.senderId}:${first.input.client_id}`);
      const message = outcome.created ?? before;
      if (message) {
        first.resolve({ message, created: outcome.created !== undefined, messageJson: outcome.createdJson });
        for (const repeat of repeats) repeat.resolve({ message, created: false });
      } else {
        first.reject(outcome.error);
        for (const repeat of repeats) repeat.reject(outcome.error);
      }
    }
  }

  private async writeBatch(tx: Tx, batch: Pending[]): Promise<{ outcomes: Outcome[]; publish: () => void }> {
    const chatIds = [...new Set(batch.map((pending) => pending.input.chat_id))].sort((a, b) => a - b);
    const senderIds = [...new Set(batch.map((pending) => pending.senderId))];

    // 1. The chats, locked in id order (a message and a membership change are ordered by this lock), with their
    //    members; and the senders as they are now.
    const [state] = await tx.query<{ chats: ChatState[] | null; senders: UserRow[] | null }>(
      `WITH locked AS MATERIALIZED (
         SELECT id, chat_type, interval_seconds FROM chats WHERE id = ANY($1::bigint[]) ORDER BY id FOR UPDATE
       )
       SELECT (SELECT json_agg(json_build_object(
                 'id', l.id, 'type', l.chat_type, 'interval', l.interval_seconds,
                 'members', (SELECT coalesce(json_agg(m.user_id ORDER BY m.user_id), '[]'::json)
                               FROM chat_members m WHERE m.chat_id = l.id)))
                 FROM locked l) AS chats,
              (SELECT json_agg(u) FROM (SELECT ${userColumns()} FROM users WHERE id = ANY($2::bigint[])) u) AS senders`,
      [chatIds, senderIds],
    );
    const chats = new Map((state?.chats ?? []).map((chat) => [Number(chat.id), { ...chat, members: chat.members.map(Number) }]));
    const senders = new Map((state?.senders ?? []).map((user) => [Number(user.id), { ...user, id: Number(user.id) }]));
    const profiles = new Map([...senders.values()].map((user) => [user.id, toPublic(user, { showPhone: false })]));

    // 2. Each send on its own; the reads a few of them need, once for all.
    const outcomes: Outcome[] = [];
    const checked: Array<{ pending: Pending; chat: ChatState; sender: UserRow } | Outcome> = batch.map((pending) => {
      try {
        const sender = senders.get(pending.senderId);
        if (pending.internal) {
          if (!sender || sender.deleted) throw forbidden(ServerStrings.noSuchUser, 'no_such_user');
        } else checkMaySend(sender);
        const chat = chats.get(pending.input.chat_id);
        if (!chat || !chat.members.includes(pending.senderId)) throw chatUnavailable();
        return { pending, chat, sender };
      } catch (error) {
        return { pending, error };
      }
    });
    const lookups = await this.lookups(
      tx,
      checked.flatMap((item) => ('chat' in item ? [item] : [])),
    );
    const prepared: Prepared[] = [];
    for (const item of checked) {
      if (!('chat' in item)) {
        outcomes.push(item);
        continue;
      }
      try {
        prepared.push(this.prepare(item.pending, item.chat, profiles.get(item.sender.id)!, lookups));
      } catch (error) {
        outcomes.push({ pending: item.pending, error });
      }
    }
    if (prepared.length === 0) return { outcomes, publish: () => undefined };
    await this.resolveMentions(tx, prepared, chats);

    // 3. One INSERT for all; a client id stored before is skipped (its send is answered with the stored message).
    const inserted = await tx.query<InsertedRow>(
      `INSERT INTO messages (chat_id, sender_id, client_id, type, text, file_path, meta, reply_to_id, forwarded_from_id, expires_at, mentions)
       SELECT v.chat_id, v.sender_id, v.client_id, v.type, v.text, v.file_path, v.meta, v.reply_to_id, v.forwarded_from_id,
              CASE WHEN v.interval_seconds > 0 THEN now() + make_interval(secs => v.interval_seconds) END, v.mentions
         FROM jsonb_to_recordset($1::jsonb)
              AS v(position integer, chat_id bigint, sender_id bigint, client_id uuid, type text, text text, file_path text,
                   meta jsonb, reply_to_id bigint, forwarded_from_id bigint, interval_seconds integer, mentions bigint[])
        ORDER BY v.position
       ON CONFLICT (sender_id, client_id) DO NOTHING
       RETURNING id, sender_id, client_id, created_at, expires_at`,
      // One JSON document rather than ten arrays: the driver serializes it natively instead of escaping elements.
      [
        JSON.stringify(
          prepared.map((send, position) => ({
            position,
            chat_id: send.chatId,
            sender_id: send.pending.senderId,
            client_id: send.pending.input.client_id,
            type: send.type,
            text: send.text,
            file_path: send.file?.path ?? null,
            meta: send.meta,
            reply_to_id: send.reply?.id ?? null,
            forwarded_from_id: send.forwardedFrom?.user_id ?? null,
            interval_seconds: send.intervalSeconds,
            mentions: send.mentions.length > 0 ? send.mentions : null,
          })),
        ),
      ],
    );
    const rows = new Map(inserted.map((row) => [`${row.sender_id}:${row.client_id}`, row]));
    const stored: Array<{ send: Prepared; message: MessageView; messageJson: string }> = [];
    for (const send of prepared) {
      const row = rows.get(`${send.pending.senderId}:${send.pending.input.client_id}`);
      if (!row) {
        // Stored by an earlier send with this client id: answered with that one, nobody told again.
        outcomes.push({ pending: send.pending, error: new HttpError(409, 'duplicate', 'already stored') });
        continue;
      }
      const message = messageView(send, row);
      const messageJson = JSON.stringify(message);
      stored.push({ send, message, messageJson });
      outcomes.push({ pending: send.pending, created: message, createdJson: messageJson });
    }
    if (stored.length === 0) return { outcomes: inBatchOrder(batch, outcomes), publish: () => undefined };
    stored.sort((a, b) => a.message.id - b.message.id);

    // 4. Each chat's last message, and each member's unread count as if the messages had come one by one: a
    //    member's own message marks the chat read up to it, another's adds one.
    const byChat = new Map<number, MessageView[]>();
    for (const { message } of stored) {
      const list = byChat.get(message.chat_id);
      if (list) list.push(message);
      else byChat.set(message.chat_id, [message]);
    }
    // Mentions count the same way: those after the member's own last message, or all of them.
    const unread: Array<{ chat_id: number; user_id: number; add: number; add_mentions: number; reset: boolean; read_up_to: number | null }> = [];
    const mentioning = (inChat: MessageView[], member: number, from: number) => {
      let count = 0;
      for (let index = from; index < inChat.length; index += 1) if (inChat[index]!.mentions.includes(member)) count += 1;
      return count;
    };
    for (const [chatId, inChat] of byChat) {
      // Per member: messages from others after the member's own last one (or all of them), in one pass.
      const lastOwn = new Map<number, number>(); // member → index in inChat of their last message
      inChat.forEach((message, index) => lastOwn.set(message.sender_id, index));
      for (const member of chats.get(chatId)!.members) {
        const own = lastOwn.get(member);
        if (own === undefined) {
          unread.push({ chat_id: chatId, user_id: member, add: inChat.length, add_mentions: mentioning(inChat, member, 0), reset: false, read_up_to: null });
          continue;
        }
        let add = 0;
        for (let index = own + 1; index < inChat.length; index += 1) if (inChat[index]!.sender_id !== member) add += 1;
        unread.push({ chat_id: chatId, user_id: member, add, add_mentions: mentioning(inChat, member, own + 1), reset: true, read_up_to: inChat[own]!.id });
      }
    }
    const lastOfChat = new Map([...byChat].map(([chatId, inChat]) => [chatId, inChat.at(-1)!]));
    const lasts = [...lastOfChat.values()];
    await tx.query(
      `WITH chat_update AS (
         UPDATE chats c SET last_message_id = v.message_id, last_message_at = v.created_at
           FROM jsonb_to_recordset($1::jsonb) AS v(chat_id bigint, message_id bigint, created_at timestamptz)
          WHERE c.id = v.chat_id
       )
       UPDATE chat_members m
          SET unread_count = CASE WHEN v.reset THEN v.add ELSE m.unread_count + v.add END,
              unread_mentions = CASE WHEN v.reset THEN v.add_mentions ELSE m.unread_mentions + v.add_mentions END,
              last_read_message_id = coalesce(v.read_up_to, m.last_read_message_id)
         FROM jsonb_to_recordset($2::jsonb)
              AS v(chat_id bigint, user_id bigint, add integer, add_mentions integer, reset boolean, read_up_to bigint)
        WHERE m.chat_id = v.chat_id AND m.user_id = v.user_id`,
      [
        JSON.stringify(lasts.map((message) => ({ chat_id: message.chat_id, message_id: message.id, created_at: message.created_at }))),
        JSON.stringify(unread),
      ],
    );

    // 5. Every member's events, in message order: their seq ranges reserved under their row locks (taken in id
    //    order, as every writer of the log takes them), and the events inserted, in one statement.
    // Each payload serialized once, around the message's JSON (which the sender's ack reuses too).
    const userJson = new Map<number, string>();
    const payloads = stored.map(({ send, message, messageJson }) => {
      let user = userJson.get(send.sender.id);
      if (user === undefined) userJson.set(send.sender.id, (user = JSON.stringify(send.sender)));
      const extra = send.pending.internal ? JSON.stringify(send.pending.internal.extra).slice(1, -1) : '';
      return `{"chat_id":${message.chat_id},"message_id":${message.id},"message":${messageJson},"user":${user}${extra ? `,${extra}` : ''}}`;
    });
    const eventType = (send: Prepared) => send.pending.internal?.eventType ?? send.type;
    if (this.checkPayloads) stored.forEach(({ send }, index) => checkEventPayload(eventType(send), JSON.parse(payloads[index]!)));
    const perUser = new Map<number, number[]>(); // recipient → indexes into `stored`
    stored.forEach(({ send }, index) => {
      for (const member of send.members) {
        let list = perUser.get(member);
        if (!list) perUser.set(member, (list = []));
        list.push(index);
      }
    });
    const recipients = [...perUser.keys()].sort((a, b) => a - b);
    const events: Array<{ user_id: number; k: number; event_type: string; payload: number }> = [];
    for (const user of recipients) {
      perUser.get(user)!.forEach((index, position) => {
        events.push({ user_id: user, k: position + 1, event_type: eventType(stored[index]!.send), payload: index });
      });
    }
    const bases = await tx.query<{ id: number; base: number }>(
      `WITH locked AS MATERIALIZED (
         SELECT id FROM users WHERE id = ANY($1::bigint[]) ORDER BY id FOR NO KEY UPDATE
       ), bumped AS (
         UPDATE users u SET last_seq = u.last_seq + v.n
           FROM unnest($1::bigint[], $2::integer[]) AS v(id, n)
          WHERE u.id = v.id AND u.id IN (SELECT id FROM locked)
          RETURNING u.id, u.last_seq - v.n AS base
       ), inserted AS (
         INSERT INTO user_events (user_id, seq, event_type, payload)
         SELECT e.user_id, b.base + e.k, e.event_type, $4::jsonb -> e.payload
           FROM jsonb_to_recordset($3::jsonb) AS e(user_id bigint, k integer, event_type text, payload integer)
           JOIN bumped b ON b.id = e.user_id
       )
       SELECT id, base FROM bumped`,
      [recipients, recipients.map((user) => perUser.get(user)!.length), JSON.stringify(events), `[${payloads.join(',')}]`],
    );
    const baseOf = new Map(bases.map((row) => [Number(row.id), Number(row.base)]));

    const publish = () => {
      for (const user of recipients) {
        const base = baseOf.get(user);
        if (base === undefined) continue; // the person is gone; nobody to tell
        perUser.get(user)!.forEach((index, position) => {
          const { message, send } = stored[index]!;
          this.bus.publish(user, {
            seq: base + position + 1,
            event_type: eventType(send),
            additional_info: { chat_id: message.chat_id, message_id: message.id, message, user: send.sender, ...send.pending.internal?.extra },
            infoJson: payloads[index]!,
          });
        });
      }
      try {
        // A call's message is not pushed as a message: the call's own ring is (calls/service.ts onRinging).
        const sent = stored.filter(({ send }) => !send.pending.internal);
        if (sent.length > 0) this.onStored(sent.map(({ send, message }) => ({ message, sender: send.sender, members: send.members })));
      } catch {
        // Web Push is best effort: the messages are committed and their events rang; nothing here may undo that.
      }
    };
    return { outcomes: inBatchOrder(batch, outcomes), publish };
  }

  /**
   * @username mentions in group texts: the members (not the sender) whose username a text names, found with one
   * query for the whole batch — and only when some group text has an @ in it at all.
   */
  private async resolveMentions(tx: Tx, prepared: Prepared[], chats: Map<number, ChatState>): Promise<void> {
    const named = new Map<Prepared, string[]>();
    for (const send of prepared) {
      if (chats.get(send.chatId)?.type !== 'group' || !send.text.includes('@')) continue;
      const names = [...send.text.matchAll(MENTION)].map((match) => match[1]!.toLowerCase());
      if (names.length > 0) named.set(send, names);
    }
    if (named.size === 0) return;
    const members = [...new Set([...named.keys()].flatMap((send) => send.members))];
    const names = [...new Set([...named.values()].flat())];
    const found = await tx.query<{ id: number; name: string }>(
      `SELECT id, lower(username) AS name FROM users WHERE id = ANY($1::bigint[]) AND lower(username) = ANY($2::text[]) AND NOT deleted`,
      [members, names],
    );
    const byName = new Map(found.map((row) => [row.name, Number(row.id)]));
    for (const [send, sendNames] of named) {
      const ids = new Set(sendNames.map((name) => byName.get(name)).filter((id): id is number => id !== undefined));
      send.mentions = [...ids].filter((id) => id !== send.pending.senderId && send.members.includes(id)).sort((a, b) => a - b);
    }
  }

  /** Files, quoted messages and forwarded originals the batch's sends name, each read in one query. */
  private async lookups(tx: Tx, sends: Array<{ pending: Pending }>): Promise<Lookups> {
    const paths = new Set<string>();
    const replyIds = new Set<number>();
    const forwardIds = new Set<number>();
    for (const { pending } of sends) {
      if (pending.input.forward_message_id !== undefined) forwardIds.add(pending.input.forward_message_id);
      else {
        if (pending.input.file_path !== undefined) paths.add(pending.input.file_path);
        if (pending.input.reply_to_id !== undefined) replyIds.add(pending.input.reply_to_id);
      }
    }
    const files =
      paths.size === 0
        ? []
        : await tx.query<FileLookup>(
            `SELECT path, owner_id, original_name, mime, size FROM files WHERE path = ANY($1::text[]) AND deleted_at IS NULL`,
            [[...paths]],
          );
    const replies =
      replyIds.size === 0
        ? []
        : await tx.query<{ id: number; chat_id: number; sender_id: number; type: SendableType; text: string } & Partial<FileLookup>>(
            // A message deleted or expired since the reply was begun is still quoted, blank ("Deleted message"),
            // as every reply to it shows it from then on: the reply is not refused for what the sender could not see.
            `SELECT msg.id, msg.chat_id, msg.sender_id, msg.type,
                    CASE WHEN live THEN msg.text ELSE '' END AS text,
                    CASE WHEN live THEN f.path END AS path, f.original_name, f.mime, f.size
               FROM messages msg LEFT JOIN files f ON f.path = msg.file_path,
                    LATERAL (SELECT msg.deleted_at IS NULL AND (msg.expires_at IS NULL OR msg.expires_at > now()) AS live) state
              WHERE msg.id = ANY($1::bigint[])`,
            [[...replyIds]],
          );
    const forwards =
      forwardIds.size === 0
        ? []
        : await tx.query<MessageRow & { reader_ids: number[]; author_name: string }>(
            `SELECT ${MESSAGE_FIELDS},
                    (SELECT coalesce(json_agg(cm.user_id), '[]'::json) FROM chat_members cm
                      WHERE cm.chat_id = msg.chat_id AND cm.user_id = ANY($2::bigint[])) AS reader_ids,
                    (SELECT CASE WHEN a.deleted THEN '' ELSE coalesce(nullif(a.name, ''), a.username, '') END
                       FROM users a WHERE a.id = coalesce(msg.forwarded_from_id, msg.sender_id)) AS author_name
               FROM ${MESSAGE_FROM}
              WHERE msg.id = ANY($1::bigint[]) AND msg.deleted_at IS NULL AND (msg.expires_at IS NULL OR msg.expires_at > now())`,
            [[...forwardIds], [...new Set(sends.map(({ pending }) => pending.senderId))]],
          );
    return {
      files: new Map(files.map((file) => [file.path, { ...file, owner_id: Number(file.owner_id), size: Number(file.size) }])),
      replies: new Map(replies.map((reply) => [Number(reply.id), reply])),
      forwards: new Map(forwards.map((row) => [Number(row.id), row])),
    };
  }

  /** A send's content from its frame (or copied from the forwarded message), checked. */
  private prepare(pending: Pending, chat: ChatState, sender: PublicUserView, lookups: Lookups): Prepared {
    const input = pending.input;
    // Built field by field (an object spread here cost more than the rest of the checks together, by profile).
    const make = (content: Pick<Prepared, 'type' | 'text' | 'file' | 'meta' | 'reply' | 'forwardedFrom'>): Prepared => ({
      pending,
      chatId: chat.id,
      type: content.type,
      text: content.text,
      file: content.file,
      meta: content.meta,
      reply: content.reply,
      forwardedFrom: content.forwardedFrom,
      intervalSeconds: chat.interval,
      members: chat.members,
      sender,
      mentions: [],
    });
    if (pending.internal) return make({ type: pending.internal.type, text: '', file: null, meta: pending.internal.meta, reply: null, forwardedFrom: null });
    if (input.forward_message_id !== undefined) {
      const original = lookups.forwards.get(input.forward_message_id);
      if (!original || !original.reader_ids.map(Number).includes(pending.senderId)) throw notFound('Message not found', 'message_not_found');
      if (original.type === 'call') throw badRequest('A call cannot be forwarded', 'cannot_forward');
      const view = toMessage(original);
      return make({
        type: original.type,
        text: original.text,
        file: view.file,
        meta: original.meta ?? {},
        reply: null,
        // A forward of a forward names the first author.
        forwardedFrom: { user_id: Number(original.forwarded_from_id ?? original.sender_id), name: original.author_name ?? '' },
      });
    }
    const type = input.message_type ?? 'text';
    const text = (input.text ?? '').trim();
    if (characterCount(text) > TEXT_MAX) throw badRequest(`A message can be at most ${TEXT_MAX} characters`, 'message_too_long');
    let file: FileInfo | null = null;
    if (type === 'text') {
      if (!text) throw badRequest('A message cannot be empty', 'empty_message');
      if (input.file_path !== undefined) throw badRequest('A text message carries no file; choose a file type', 'unexpected_file');
    } else {
      if (input.file_path === undefined) throw badRequest(`An ${type} message needs a file_path`, 'file_required');
      const found = lookups.files.get(input.file_path);
      if (!found || found.owner_id !== pending.senderId) throw badRequest('This file was not uploaded by you', 'file_not_yours');
      const family = TYPE_FAMILY[type];
      if (family && !found.mime.startsWith(family)) {
        throw badRequest(`An ${type} message needs a ${family}* file, not ${found.mime}`, 'file_type_mismatch');
      }
      file = { path: found.path, name: found.original_name, size: found.size, mime: found.mime };
    }
    let reply: ReplySnapshot | null = null;
    if (input.reply_to_id !== undefined) {
      const quoted = lookups.replies.get(input.reply_to_id);
      if (!quoted || Number(quoted.chat_id) !== chat.id) throw badRequest('The message you reply to is not in this chat', 'reply_not_found');
      reply = {
        id: Number(quoted.id),
        sender_id: Number(quoted.sender_id),
        type: quoted.type,
        text: quoted.text,
        file: quoted.path
          ? { path: quoted.path, name: quoted.original_name ?? '', size: Number(quoted.size ?? 0), mime: quoted.mime ?? 'application/octet-stream' }
          : null,
      };
    }
    return make({ type, text, file, meta: input.meta ?? {}, reply, forwardedFrom: null });
  }
}

interface Lookups {
  files: Map<string, FileLookup>;
  replies: Map<number, { id: number; chat_id: number; sender_id: number; type: SendableType; text: string } & Partial<FileLookup>>;
  forwards: Map<number, MessageRow & { reader_ids: number[]; author_name: string }>;
}

/** The message as everyone sees it, from what was inserted: nothing is read back. */
function messageView(send: Prepared, row: InsertedRow): MessageView {
  return {
    id: Number(row.id),
    chat_id: send.chatId,
    sender_id: send.pending.senderId,
    client_id: send.pending.input.client_id,
    type: send.type,
    text: send.text,
    file_path: send.file?.path ?? null,
    file: send.file,
    meta: send.meta,
    reply_to: send.reply,
    forwarded_from: send.forwardedFrom,
    created_at: new Date(row.created_at).toISOString(),
    expires_at: row.expires_at === null ? null : new Date(row.expires_at).toISOString(),
    edited_at: null,
    reactions: [],
    mentions: send.mentions,
  };
}

function inBatchOrder(batch: Pending[], outcomes: Outcome[]): Outcome[] {
  const byPending = new Map(outcomes.map((outcome) => [outcome.pending, outcome]));
  return batch.map((pending) => byPending.get(pending)!);
}
