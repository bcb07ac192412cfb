import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Db, Tx } from '../../db/index.js';
import type { EventLog } from '../../events/log.js';
import { HttpError, ServerStrings, callNodeUnavailable, conflict, forbidden, notFound, unauthorized } from '../../http/errors.js';
import { RoomFullError, type MediaEngine, type MeetingSink, type RoomMember } from '../../media/engine.js';
import { MEET_TOKEN_TTL_SECONDS, type MeetClaims, type MeetTokens } from '../../security/meet-tokens.js';
import { chatUnavailable, findMessageView, lockChat, memberIds } from '../chats/repository.js';
import { actorProfile } from '../users/repository.js';
import type { MessageWriter } from '../messages/writer.js';
import { loadActor, loadAdmin } from '../users/actor.js';
import { iceServersFor } from './turn.js';
import type { RingingCall } from '../push/notifier.js';
import { CallEndReason, type CallInfo } from '@messenger/protocol';
import type { MessageView } from '../chats/model.js';

/** Spec §8 texts, sent verbatim as `message`. */
export const CallStrings = {
  alreadyInCall: 'You cannot make two or more calls at the same time',
  busy: 'Call was interrupted because the user is currently busy',
} as const;

export type EndReason = CallEndReason;
const END_REASONS: readonly string[] = CallEndReason.anyOf.map((reason) => reason.const);
const isEndReason = (reason: string): reason is EndReason => END_REASONS.includes(reason);

interface CallRow extends Record<string, unknown> {
  id: number;
  chat_id: number;
  caller_id: number;
  room_id: string;
  message_id: number | null;
  status: 'ringing' | 'active' | 'ended' | 'missed' | 'rejected' | 'busy';
  connected: boolean;
  recording: boolean;
}

/** A running call of a chat, as its routes answer it: the contract's. */
export type { CallInfo } from '@messenger/protocol';

/** One open meeting socket: its participant in the media room, and how to talk to it. */
interface Connection {
  userId: number;
  member: RoomMember;
  /** Whether the person sends a picture (camera or screen), as their browser says; unknown until it does. */
  videoOn?: boolean;
  send: MeetingSink;
  close: () => void;
}

/**
 * The server holds a dropped person's place this much longer than the browser retries (`reconnectSeconds`): the
 * browser's last attempt, begun just before its window closes, still needs a ticket and a socket.
 */
const RECONNECT_SLACK_MS = 10_000;

/** The close code of a meeting socket its person closed on purpose (hang-up); any other close is a drop. */
export const LEAVE_CLOSE_CODE = 1000;

/** A recording chunk may still arrive this long after its call ended (the last one is uploaded at hang-up). */
const RECORDING_GRACE_SECONDS = 60;

const CALL_COLUMNS = 'id, chat_id, caller_id, room_id, message_id, status, connected, recording';

/** How often a cluster node says it is alive (and looks for dead nodes' calls). */
export const CLUSTER_HEARTBEAT_MS = 5_000;
/** A node silent for this long is dead. */
export const CLUSTER_NODE_DEAD_MS = 20_000;
/** Dead nodes' calls ended per heartbeat at most; the rest at the next ones. */
const ORPHANS_PER_HEARTBEAT = 50;

/**
 * The life of a call: started in a chat (a call record and a `call` message, `call` to the others), answered by
 * joining the meeting socket, and ended by hang-up, rejection, the last person leaving, or nobody answering within
 * the ring time (missed). Media go through the media engine; this class only decides who is in which room.
 * The database holds what happened (history, statistics); rooms and sockets live in this process.
 */
export class CallsService {
  /** Open meeting sockets per call id. */
  private readonly connections = new Map<number, Map<number, Connection>>();
  private readonly ringTimers = new Map<number, ReturnType<typeof setTimeout>>();
  /** Told of each call that starts ringing, after its COMMIT (Web Push for callees who are not online). */
  onRinging: (call: RingingCall) => void = () => undefined;
  /** Told of each call that stopped ringing with nobody answering, after its COMMIT. */
  onMissed: (call: RingingCall) => void = () => undefined;
  /** People whose meeting socket dropped, per call id: when their place is given up, if they do not come back. */
  private readonly away = new Map<number, Map<number, { until: number; timer: ReturnType<typeof setTimeout> }>>();

  constructor(
    private readonly db: Db,
    private readonly events: EventLog,
    private readonly engine: MediaEngine,
    private readonly meetTokens: MeetTokens,
    private readonly config: Config['calls'],
    private readonly log: FastifyBaseLogger,
    /** Writes the call's message, as every message is written. */
    private readonly writer: MessageWriter,
    /**
     * This node: its id, whether other nodes share the database (then a node ends only its own and dead nodes'
     * calls), and where the others reach it (known once it listens).
     */
    private readonly node: { id: string; clustered: boolean; url?: () => string | null } = { id: 'single', clustered: false },
  ) {}

  /** Tells the other nodes that a call ended here (cluster/nats-link.ts); the room's node closes the room. */
  private announceEnded: ((callId: number, roomId: string, reason: EndReason) => void) | null = null;
  /** Tells the other nodes that people left a chat during its call; the room's node takes them out. */
  private announceLeft: ((callId: number, roomId: string, userIds: number[]) => void) | null = null;

  joinCluster(announce: {
    ended: (callId: number, roomId: string, reason: EndReason) => void;
    left: (callId: number, roomId: string, userIds: number[]) => void;
  }): void {
    this.announceEnded = announce.ended;
    this.announceLeft = announce.left;
  }

  /**
   * Where a call's room lives when that is another, live node of the cluster: its meeting sockets are forwarded
   * there (the room and its SFU are in that node's memory). Null when the room is here (or there is no cluster).
   */
  async roomNodeUrl(callId: number): Promise<string | null> {
    if (!this.node.clustered) return null;
    const [row] = await this.db.query<{ node_id: string | null; url: string | null }>(
      `SELECT c.node_id, n.url FROM calls c LEFT JOIN cluster_nodes n ON n.node_id = c.node_id WHERE c.id = $1`,
      [callId],
    );
    if (!row || row.node_id === null || row.node_id === this.node.id) return null;
    if (!row.url) throw callNodeUnavailable();
    return row.url;
  }

  /**
   * Another node ended a call whose room is here: its sockets learn it and the room closes. The reason comes over
   * NATS as text; one this node does not know (a newer node's) is told as a plain `ended`.
   */
  endedElsewhere(callId: number, roomId: string, reason: string): void {
    this.clearRingTimer(callId);
    for (const userId of [...(this.away.get(callId)?.keys() ?? [])]) this.clearAway(callId, userId);
    this.closeRoom(callId, roomId, isEndReason(reason) ? reason : 'ended');
  }

  /**
   * People who stopped being members of a chat (they left the group, or its owner removed them) leave the call
   * running in it at once, after that change commits. Their meeting token no longer opens the room
   * (`authorizeSocket`), and the media they still receive must stop as well: their socket is told `ended` (left)
   * and closed, a dropped one's held place is given up, and the last one out ends the call.
   */
  async membersLeft(chatId: number, userIds: number[]): Promise<void> {
    if (userIds.length === 0) return;
    const call = await this.runningIn(this.db, chatId);
    if (!call) return;
    await this.db.query('UPDATE call_participants SET left_at = now() WHERE call_id = $1 AND user_id = ANY($2::bigint[]) AND left_at IS NULL', [
      call.id,
      userIds,
    ]);
    // The room may be on another node of the cluster: that node takes them out.
    this.announceLeft?.(call.id, call.room_id, userIds);
    await this.takeOut(call.id, call.room_id, userIds);
  }

  /** Another node saw people leave a chat whose call's room is here. */
  async leftElsewhere(callId: number, roomId: string, userIds: number[]): Promise<void> {
    await this.takeOut(callId, roomId, userIds);
  }

  /** Takes people out of a call whose room is here, their socket or their held place; nothing if they are in neither. */
  private async takeOut(callId: number, roomId: string, userIds: number[]): Promise<void> {
    let tookOut = false;
    let wasAway = false;
    for (const userId of userIds) {
      const byUser = this.connections.get(callId);
      const connection = byUser?.get(userId);
      if (connection) {
        // Out of the room before the socket closes: its close then finds nothing of theirs (disconnect()).
        byUser!.delete(userId);
        connection.member.leave();
        connection.send('ended', { reason: 'left' });
        connection.close();
        tookOut = true;
      }
      if (this.clearAway(callId, userId)) wasAway = tookOut = true;
    }
    if (!tookOut) return;
    if (wasAway) this.announceAway(callId);
    this.announceParticipants(callId, roomId);
    await this.endIfEmpty(callId, userIds);
  }

  /** Called inside a change that takes people out of a chat: once it commits, they leave its call (`membersLeft`). */
  whenMembersLeave(tx: Tx, chatId: number, userIds: number[]): void {
    tx.afterCommit(
      () => void this.membersLeft(chatId, userIds).catch((error: unknown) => this.log.error({ err: error }, 'taking people out of a call failed')),
    );
  }

  /**
   * Called inside a change that deletes a chat, before the delete: a call running in it goes with it (its record
   * cascades), so once the change commits its room closes, here and on the node holding it. Its members learn it
   * from `chat-deleted`, their meeting sockets from `ended`.
   */
  async whenChatDeleted(tx: Tx, chatId: number): Promise<void> {
    const call = await this.runningIn(tx, chatId);
    if (!call) return;
    tx.afterCommit(() => {
      this.endedElsewhere(call.id, call.room_id, 'ended');
      this.announceEnded?.(call.id, call.room_id, 'ended');
    });
  }

  private closeRoom(callId: number, roomId: string, reason: EndReason): void {
    const byUser = this.connections.get(callId);
    this.connections.delete(callId);
    for (const connection of byUser?.values() ?? []) {
      connection.send('ended', { reason });
      connection.close();
    }
    this.engine.closeRoom(roomId);
  }

  /** Starts a call in a chat, or joins the one already running there. */
  async start(userId: number, chatId: number): Promise<{ call: CallInfo; joined: boolean; busy: boolean; message?: MessageView }> {
    await loadActor(this.db, userId);
    const result = await this.db.transaction(async (tx) => {
      const chat = await lockChat(tx, chatId);
      const members = chat ? await memberIds(tx, chatId) : [];
      if (!chat || !members.includes(userId)) throw chatUnavailable();
      const running = await this.runningIn(tx, chatId);
      if (running) return { row: running, joined: true, busy: false, message: undefined, ringing: undefined };
      if (await this.inCall(tx, userId)) throw conflict(CallStrings.alreadyInCall, 'already_in_call');
      const others = members.filter((id) => id !== userId);
      const busy = chat.chat_type === 'private' && others.length === 1 && (await this.inCall(tx, others[0]!));
      const [inserted] = await tx.query<CallRow>(
        `INSERT INTO calls (chat_id, caller_id, room_id, status, recording, ended_at, node_id)
         SELECT $1, $2, $3, $4, c.recording, CASE WHEN $4 = 'busy' THEN now() END, $5 FROM chats c WHERE c.id = $1
         RETURNING ${CALL_COLUMNS}`,
        [chatId, userId, randomUUID(), busy ? 'busy' : 'ringing', this.node.id],
      );
      // The call's message goes through the one message writer (unread counts, read marks, auto-delete, events).
      // Its event rings the others (`call`), or tells them at once that the callee was busy (`hang`).
      const message = await this.writer.writeWithin(tx, userId, chatId, {
        type: 'call',
        meta: busy ? { call_status: 'busy', duration_seconds: null } : {},
        eventType: busy ? 'hang' : 'call',
        extra: busy
          ? { call_id: inserted!.id, room_id: inserted!.room_id, reason: 'busy' }
          : { call_id: inserted!.id, room_id: inserted!.room_id, chat_type: chat.chat_type },
      });
      const [row] = await tx.query<CallRow>(`UPDATE calls SET message_id = $2 WHERE id = $1 RETURNING ${CALL_COLUMNS}`, [inserted!.id, message.id]);
      const caller = await actorProfile(tx, userId);
      return { row: row!, joined: false, busy, message, ringing: busy ? undefined : { chatId, callId: row!.id, caller, callees: others } };
    });
    if (!result.joined && !result.busy) this.armRingTimer(result.row.id);
    if (result.ringing) this.tell(this.onRinging, result.ringing);
    // The media engine may load lazily: it does so while the call rings, not when the first person joins.
    if (!result.busy) this.engine.warmUp?.();
    // The caller's own client shows the call message at once, as it does with a sent text.
    return { call: info(result.row), joined: result.joined, busy: result.busy, ...(result.message ? { message: result.message } : {}) };
  }

  /** Declines an incoming call: a private call ends (`call-rejected` to the caller); in a group, nothing changes. */
  async reject(userId: number, chatId: number): Promise<{ rejected: boolean }> {
    const call = await this.requireRunning(userId, chatId);
    const [chat] = await this.db.query<{ chat_type: string }>('SELECT chat_type FROM chats WHERE id = $1', [chatId]);
    // A call already answered (on another tab or device of theirs, which rang too) is not declined: it goes on.
    if (chat?.chat_type === 'private' && call.caller_id !== userId && !call.connected) {
      await this.end(call.id, 'rejected', { rejectedBy: userId, unansweredOnly: true });
    }
    return { rejected: true };
  }

  /**
   * Spec §7 app-socket hang-up: a private call ends for both; in a group the person leaves it. A hang-up that names
   * its call (`callId`) and comes after that call is over — sent again after a lost answer — ends nothing, not even a
   * newer call of the chat.
   */
  async hang(userId: number, chatId: number, callId?: number): Promise<void> {
    let call: CallRow;
    try {
      call = await this.requireRunning(userId, chatId);
    } catch (error) {
      if (callId !== undefined && error instanceof HttpError && error.code === 'no_call') return;
      throw error;
    }
    if (callId !== undefined && call.id !== callId) return;
    const [chat] = await this.db.query<{ chat_type: string }>('SELECT chat_type FROM chats WHERE id = $1', [chatId]);
    if (chat?.chat_type === 'private') {
      await this.end(call.id, call.connected ? 'ended' : 'missed');
      return;
    }
    const connection = this.connections.get(call.id)?.get(userId);
    if (connection) {
      connection.send('ended', { reason: 'left' });
      connection.close();
    } else if (call.caller_id === userId && !call.connected) {
      // The caller gives up before anyone answered.
      await this.end(call.id, 'missed');
    }
  }

  /** The meeting token and ICE servers for the call running in a chat. */
  async token(userId: number, chatId: number) {
    const call = await this.requireRunning(userId, chatId);
    return {
      token: await this.meetTokens.issue({ userId, chatId, roomId: call.room_id }),
      room_id: call.room_id,
      call_id: call.id,
      message_id: call.message_id,
      ice_servers: iceServersFor(userId, this.config.turnUrls, this.config.turnSecret, this.config.turnTtlSeconds),
      // Relay-only is honoured only when there is a TURN server to relay through.
      ice_transport_policy: this.config.relayOnly && this.config.turnSecret ? ('relay' as const) : ('all' as const),
      expires_in: MEET_TOKEN_TTL_SECONDS,
      // How long the browser keeps trying to come back after its connection drops (the server waits longer).
      reconnect_seconds: this.config.reconnectSeconds,
    };
  }

  /** Who is in the call's room — or, when the room lives on another node of the cluster, that node's address to ask. */
  async participants(userId: number, chatId: number): Promise<{ participants: Record<string, string> } | { roomNode: string }> {
    const call = await this.requireRunning(userId, chatId);
    const roomNode = await this.roomNodeUrl(call.id);
    if (roomNode) return { roomNode };
    return { participants: Object.fromEntries(this.engine.participants(call.room_id)) };
  }

  async callId(userId: number, chatId: number): Promise<{ call_id: number; room_id: string; message_id: number | null }> {
    const call = await this.requireRunning(userId, chatId);
    return { call_id: call.id, room_id: call.room_id, message_id: call.message_id };
  }

  /** Whether this chat's calls are recorded; admins only, as switching it. */
  async recording(userId: number, chatId: number): Promise<{ chat_id: number; recording: boolean }> {
    await loadAdmin(this.db, userId);
    const [row] = await this.db.query<{ recording: boolean }>('SELECT recording FROM chats WHERE id = $1', [chatId]);
    if (!row) throw chatUnavailable();
    return { chat_id: chatId, recording: row.recording };
  }

  /** Admins switch recording of a chat's calls on or off (docs/decisions.md). */
  async setRecording(userId: number, chatId: number, enabled: boolean): Promise<{ chat_id: number; recording: boolean }> {
    await loadAdmin(this.db, userId);
    const updated = await this.db.query('UPDATE chats SET recording = $2 WHERE id = $1 RETURNING id', [chatId, enabled]);
    if (updated.length === 0) throw chatUnavailable();
    return { chat_id: chatId, recording: enabled };
  }

  /**
   * Checks a meeting socket before its upgrade: a valid meeting token for this chat, its call still running in
   * that room, and the person still a member of the chat.
   */
  async authorizeSocket(token: string | undefined, chatId: number): Promise<MeetClaims & { callId: number }> {
    const claims = token ? await this.meetTokens.verify(token) : null;
    if (!claims) throw unauthorized('Invalid or expired meeting token', 'invalid_meet_token');
    if (claims.chatId !== chatId) throw forbidden('This meeting token is for another chat', 'wrong_chat');
    const members = await memberIds(this.db, chatId);
    if (!members.includes(claims.userId)) throw chatUnavailable();
    // A meeting token outlives nothing: someone blocked or deleted since it was issued cannot join with it.
    const [person] = await this.db.query<{ blocked: boolean; deleted: boolean }>('SELECT blocked, deleted FROM users WHERE id = $1', [claims.userId]);
    if (!person || person.deleted || person.blocked) throw forbidden(ServerStrings.banned, 'banned');
    const call = await this.runningIn(this.db, chatId);
    if (!call || call.room_id !== claims.roomId) throw notFound('This call has ended', 'call_ended');
    return { ...claims, callId: call.id };
  }

  /** A participant's meeting socket opened: into the media room, and the call counts as answered. */
  async connect(claims: MeetClaims & { callId: number }, send: MeetingSink, close: () => void): Promise<Connection> {
    let member: RoomMember;
    try {
      member = await this.engine.join(claims.roomId, claims.userId, send);
    } catch (error) {
      if (error instanceof RoomFullError) throw new HttpError(409, 'room_full', 'This call is full');
      throw error;
    }
    const connection: Connection = { userId: claims.userId, member, send, close };
    let byUser = this.connections.get(claims.callId);
    if (!byUser) {
      byUser = new Map();
      this.connections.set(claims.callId, byUser);
    }
    const previous = byUser.get(claims.userId);
    byUser.set(claims.userId, connection);
    if (previous) previous.close();

    // A participant is recorded only in a call still running, and only while still a member of its chat: the call
    // may have ended, the chat been deleted or the person removed from it while this join waited (the media engine
    // loads on first use), and the room closed or the person taken out before they were in it — nobody would take
    // this one out.
    const [call] = await this.db.query<CallRow & { ended: boolean; member: boolean; first_join: boolean }>(
      `WITH joined AS (
         INSERT INTO call_participants (call_id, user_id)
         SELECT k.id, $2 FROM calls k
          WHERE k.id = $1 AND k.ended_at IS NULL
            AND EXISTS (SELECT 1 FROM chat_members m WHERE m.chat_id = k.chat_id AND m.user_id = $2)
         ON CONFLICT (call_id, user_id) DO UPDATE SET left_at = NULL RETURNING call_id, xmax = 0 AS inserted)
       SELECT ${CALL_COLUMNS}, ended_at IS NOT NULL AS ended,
              EXISTS (SELECT 1 FROM chat_members m WHERE m.chat_id = calls.chat_id AND m.user_id = $2) AS member,
              COALESCE((SELECT inserted FROM joined), false) AS first_join
         FROM calls WHERE id = $1`,
      [claims.callId, claims.userId],
    );
    if (!call || call.ended || !call.member) {
      if (byUser.get(claims.userId) === connection) byUser.delete(claims.userId);
      if (byUser.size === 0) this.connections.delete(claims.callId);
      member.leave();
      throw notFound('This call has ended', 'call_ended');
    }
    // The call rang on every tab and device of theirs: the others stop ringing. A transaction of its own after the
    // join, so that the join never waits for the person's row while its new participant row holds the call's key
    // (a crash in between leaves the others ringing until the call ends).
    if (call.first_join && call.caller_id !== claims.userId) {
      await this.db.transaction((tx) =>
        this.events.append(tx, [claims.userId], 'call-answered', { chat_id: call.chat_id, call_id: call.id }),
      );
    }
    // Answered: a second person is in the room.
    if (call && !call.connected && this.engine.participants(claims.roomId).size >= 2) {
      await this.db.query(`UPDATE calls SET connected = true, status = 'active', answered_at = now() WHERE id = $1 AND ended_at IS NULL`, [claims.callId]);
      this.clearRingTimer(claims.callId);
    }
    if (call?.recording) send('record_audio', { message_id: call.message_id });
    // Back from a drop: in the room first, then no longer away (a browser that saw neither would think it alone).
    const returned = this.clearAway(claims.callId, claims.userId);
    this.announceParticipants(claims.callId, claims.roomId);
    if (returned || this.away.get(claims.callId)?.size) this.announceAway(claims.callId);
    send('video', this.videoStates(claims.callId));
    return connection;
  }

  /**
   * A person's browser says whether it sends a picture (its camera or screen is on) or the blank one: everyone in
   * the call learns it (`video`), so their tile shows the avatar exactly while the camera is off.
   */
  setVideo(claims: MeetClaims & { callId: number }, connection: Connection, on: boolean): void {
    if (this.connections.get(claims.callId)?.get(claims.userId) !== connection || connection.videoOn === on) return;
    connection.videoOn = on;
    const states = this.videoStates(claims.callId);
    for (const other of this.connections.get(claims.callId)?.values() ?? []) other.send('video', states);
  }

  /** `{"<user id>": true | false}` for everyone connected whose browser has said. */
  private videoStates(callId: number): Record<string, boolean> {
    const states: Record<string, boolean> = {};
    for (const connection of this.connections.get(callId)?.values() ?? []) {
      if (connection.videoOn !== undefined) states[connection.userId] = connection.videoOn;
    }
    return states;
  }

  /**
   * A meeting socket closed. Leaving on purpose (close code 1000) takes the person out of the call; a drop holds
   * their place for the reconnect window (`reconnecting` tells the others). The last one out ends the call.
   */
  async disconnect(claims: MeetClaims & { callId: number }, connection: Connection, closeCode: number = LEAVE_CLOSE_CODE): Promise<void> {
    const byUser = this.connections.get(claims.callId);
    if (byUser?.get(claims.userId) !== connection) return; // replaced by a newer connection of the same person
    byUser.delete(claims.userId);
    connection.member.leave();
    if (closeCode === LEAVE_CLOSE_CODE) {
      await this.db.query('UPDATE call_participants SET left_at = now() WHERE call_id = $1 AND user_id = $2', [claims.callId, claims.userId]);
    } else {
      this.holdPlace(claims, this.config.reconnectSeconds * 1000 + RECONNECT_SLACK_MS);
      // Away first, then out of the room: the others never see the call empty.
      this.announceAway(claims.callId);
    }
    this.announceParticipants(claims.callId, claims.roomId);
    await this.endIfEmpty(claims.callId, [claims.userId]);
  }

  /** Nobody is connected and nobody is coming back: the call ends (missed, if nobody ever answered). */
  private async endIfEmpty(callId: number, lastUserIds: number[]): Promise<void> {
    if ((this.connections.get(callId)?.size ?? 0) > 0 || (this.away.get(callId)?.size ?? 0) > 0) return;
    const [call] = await this.db.query<CallRow>(`SELECT ${CALL_COLUMNS} FROM calls WHERE id = $1 AND ended_at IS NULL`, [callId]);
    // Alone and nobody ever answered: the caller gave up, or the call waits for its ring time.
    if (call?.connected) await this.end(callId, 'ended');
    else if (call && lastUserIds.includes(call.caller_id)) await this.end(callId, 'missed');
  }

  /** Keeps a dropped person's place in the call for `ms`; after that they have left. */
  private holdPlace(claims: MeetClaims & { callId: number }, ms: number): void {
    this.clearAway(claims.callId, claims.userId);
    let byUser = this.away.get(claims.callId);
    if (!byUser) {
      byUser = new Map();
      this.away.set(claims.callId, byUser);
    }
    const timer = setTimeout(() => {
      if (!this.clearAway(claims.callId, claims.userId)) return;
      this.announceAway(claims.callId);
      void this.db
        .query('UPDATE call_participants SET left_at = now() WHERE call_id = $1 AND user_id = $2 AND left_at IS NULL', [claims.callId, claims.userId])
        .then(() => this.endIfEmpty(claims.callId, [claims.userId]))
        .catch((error: unknown) => this.log.error({ err: error }, 'giving up a dropped participant failed'));
    }, ms);
    timer.unref();
    byUser.set(claims.userId, { until: Date.now() + ms, timer });
  }

  /** Whether the person was away (their held place is given back or up). */
  private clearAway(callId: number, userId: number): boolean {
    const byUser = this.away.get(callId);
    const entry = byUser?.get(userId);
    if (!entry) return false;
    clearTimeout(entry.timer);
    byUser!.delete(userId);
    if (byUser!.size === 0) this.away.delete(callId);
    return true;
  }

  /** `reconnecting` to everyone in the call: who dropped and may come back, with the seconds left for them. */
  private announceAway(callId: number): void {
    const now = Date.now();
    const away = Object.fromEntries([...(this.away.get(callId) ?? new Map())].map(([userId, entry]) => [userId, Math.max(0, Math.ceil((entry.until - now) / 1000))]));
    for (const connection of this.connections.get(callId)?.values() ?? []) connection.send('reconnecting', away);
  }

  /** The call a person may upload a recording chunk of (by its message), or null when they may not. */
  async recordableCall(userId: number, chatId: number, messageId: number): Promise<number | null> {
    const rows = await this.db.query<{ id: number }>(
      // Someone still in the chat, who is in the call or left it within the grace (the last chunk comes at hang-up).
      `SELECT k.id FROM calls k JOIN call_participants p ON p.call_id = k.id AND p.user_id = $1
        WHERE k.chat_id = $2 AND k.message_id = $3 AND k.recording
          AND (k.ended_at IS NULL OR k.ended_at > now() - make_interval(secs => $4))
          AND (p.left_at IS NULL OR p.left_at > now() - make_interval(secs => $4))
          AND EXISTS (SELECT 1 FROM chat_members m WHERE m.chat_id = k.chat_id AND m.user_id = $1)`,
      [userId, chatId, messageId, RECORDING_GRACE_SECONDS],
    );
    return rows[0]?.id ?? null;
  }

  async addRecording(callId: number, userId: number, filePath: string): Promise<void> {
    await this.db.query('INSERT INTO call_recordings (call_id, user_id, file_path) VALUES ($1, $2, $3)', [callId, userId, filePath]);
  }

  /** Calls left running by a previous process (its rooms died with it) end now; `hang` tells everyone. */
  /**
   * At start-up: calls whose rooms died with a previous process end. On a single node that is every running call.
   * In a cluster it is this node's own (from its previous life) and those of nodes that stopped saying they are
   * alive — never a live node's: a node starting must not end the calls another one holds.
   */
  async recover(): Promise<void> {
    if (!this.node.clustered) {
      const stale = await this.db.query<{ id: number; connected: boolean }>('SELECT id, connected FROM calls WHERE ended_at IS NULL');
      for (const call of stale) await this.end(call.id, call.connected ? 'ended' : 'missed');
      return;
    }
    await this.heartbeat({ endOwn: true });
  }

  /**
   * A cluster node says it is alive, and ends the calls of nodes that stopped saying so (their SFU, and so their
   * media, died with them). Repeated every `CLUSTER_HEARTBEAT_MS` by every node; ending a call twice is a no-op.
   */
  async heartbeat(options: { endOwn?: boolean } = {}): Promise<void> {
    const url = this.node.url?.();
    // Before it listens (start-up recovery) a node cannot say where it is; it says so at its first heartbeat.
    if (url) {
      try {
        await this.db.query(
          `INSERT INTO cluster_nodes (node_id, url, heartbeat_at) VALUES ($1, $2, now())
           ON CONFLICT (node_id) DO UPDATE SET url = $2, heartbeat_at = now()`,
          [this.node.id, url],
        );
        // A beat late by more than two periods (the database stalled without failing) starts the count again.
        const now = Date.now();
        if (this.lastBeatAt === null || now - this.lastBeatAt > 2 * CLUSTER_HEARTBEAT_MS) this.beatingSince = now;
        this.lastBeatAt = now;
      } catch (error) {
        this.beatingSince = this.lastBeatAt = null;
        throw error;
      }
    }
    // A node whose silence is stale may only have been cut off from the database, as this one may have been: its
    // calls are ended only by a node that itself said so without a break for longer than the dead time (after a
    // database outage every node's word is stale, and the first one back would end everybody's calls). A node
    // that left on purpose (its row gone) needs no such wait.
    const mayJudgeSilence = this.beatingSince !== null && Date.now() - this.beatingSince > CLUSTER_NODE_DEAD_MS;
    // Calls of many dead nodes are ended a batch per heartbeat, so this node's own word is never late.
    const orphaned = await this.db.query<{ id: number; connected: boolean }>(
      `SELECT c.id, c.connected FROM calls c
        WHERE c.ended_at IS NULL
          AND (c.node_id IS NULL
               OR (c.node_id = $1 AND $2)
               OR (c.node_id <> $1 AND NOT EXISTS (
                     SELECT 1 FROM cluster_nodes n
                      WHERE n.node_id = c.node_id AND (NOT $5 OR n.heartbeat_at > now() - make_interval(secs => $3)))))
        ORDER BY c.id LIMIT $4`,
      [this.node.id, options.endOwn === true, CLUSTER_NODE_DEAD_MS / 1000, ORPHANS_PER_HEARTBEAT, mayJudgeSilence],
    );
    for (const call of orphaned) await this.end(call.id, call.connected ? 'ended' : 'missed');
    // Nodes gone for a day are forgotten (a default NODE_ID is new at every start).
    await this.db.query(`DELETE FROM cluster_nodes WHERE heartbeat_at < now() - interval '1 day'`);
  }

  /** Since when this node's heartbeats have been written without a failure (null: the last one failed, or none yet). */
  private beatingSince: number | null = null;
  private lastBeatAt: number | null = null;

  /** A cluster node leaving on purpose: the others end its calls at their next heartbeat, not after the dead time. */
  async leaveCluster(): Promise<void> {
    if (this.node.clustered) await this.db.query('DELETE FROM cluster_nodes WHERE node_id = $1', [this.node.id]);
  }

  close(): void {
    for (const timer of this.ringTimers.values()) clearTimeout(timer);
    this.ringTimers.clear();
    for (const byUser of this.away.values()) for (const entry of byUser.values()) clearTimeout(entry.timer);
    this.away.clear();
    for (const byUser of this.connections.values()) for (const connection of byUser.values()) connection.close();
    this.connections.clear();
    this.engine.close();
  }

  /**
   * Ends a running call once: its record, `hang` to every member (and `call-rejected` to the caller when
   * declined), then the room and its sockets.
   */
  async end(callId: number, reason: EndReason, options: { rejectedBy?: number; unansweredOnly?: boolean } = {}): Promise<void> {
    const ended = await this.db.transaction(async (tx) => {
      // The chat's lock first, then the message, then the people: the order of every writer of a chat's messages
      // (the expiry sweeper may be deleting this call's message at the same moment).
      const [running] = await tx.query<{ chat_id: number }>('SELECT chat_id FROM calls WHERE id = $1 AND ended_at IS NULL', [callId]);
      if (!running) return null;
      await lockChat(tx, running.chat_id);
      // A decline or a ring timeout ends only a call nobody has answered: one answered meanwhile goes on.
      const [call] = await tx.query<CallRow>(
        `UPDATE calls SET ended_at = now(), status = $2 WHERE id = $1 AND ended_at IS NULL AND NOT ($3 AND connected) RETURNING ${CALL_COLUMNS}`,
        [callId, reason, options.unansweredOnly === true],
      );
      if (!call) return null;
      await tx.query('UPDATE call_participants SET left_at = now() WHERE call_id = $1 AND left_at IS NULL', [callId]);
      if (call.message_id) {
        // The call's message tells its outcome from now on (the chat shows "Missed", "Declined", or how long).
        await tx.query(
          `UPDATE messages m SET meta = m.meta || jsonb_build_object(
             'call_status', c.status,
             'duration_seconds', CASE WHEN c.answered_at IS NULL THEN NULL ELSE GREATEST(0, floor(EXTRACT(EPOCH FROM c.ended_at - c.answered_at)))::int END)
           FROM calls c WHERE c.id = $1 AND m.id = c.message_id`,
          [callId],
        );
      }
      const members = await memberIds(tx, call.chat_id);
      await this.events.lockRecipients(tx, members);
      // An expired message (the chat's auto-delete time passed during the call) is not shown again: expired by the
      // database's clock, the one the expiry sweeper deletes by (a node's own clock may be off).
      const [live] = call.message_id
        ? await tx.query<{ id: number }>('SELECT id FROM messages WHERE id = $1 AND (expires_at IS NULL OR expires_at > now())', [call.message_id])
        : [];
      const message = live ? await findMessageView(tx, live.id) : null;
      if (reason === 'rejected' && options.rejectedBy !== undefined) {
        const user = await actorProfile(tx, options.rejectedBy);
        await this.events.append(tx, [call.caller_id], 'call-rejected', { chat_id: call.chat_id, call_id: call.id, user });
      }
      await this.events.append(tx, members, 'hang', { chat_id: call.chat_id, call_id: call.id, room_id: call.room_id, reason, message });
      const missed: RingingCall | undefined =
        reason === 'missed'
          ? { chatId: call.chat_id, callId: call.id, caller: await actorProfile(tx, call.caller_id), callees: members.filter((id) => id !== call.caller_id) }
          : undefined;
      return { ...call, missed };
    });
    // Only a call this ended loses its ring timer and held places (one answered meanwhile goes on with them).
    if (!ended) return;
    this.clearRingTimer(callId);
    for (const userId of [...(this.away.get(callId)?.keys() ?? [])]) this.clearAway(callId, userId);
    if (ended.missed) this.tell(this.onMissed, ended.missed);
    this.closeRoom(callId, ended.room_id, reason);
    // The room may be on another node (a hang-up, a decline or the last leave that came through this one).
    this.announceEnded?.(callId, ended.room_id, reason);
  }

  /** A hook's failure (Web Push) never turns a committed call into an error for its caller. */
  private tell(hook: (call: RingingCall) => void, call: RingingCall): void {
    try {
      hook(call);
    } catch (error) {
      this.log.warn({ err: error }, 'call hook failed');
    }
  }

  private armRingTimer(callId: number): void {
    const timer = setTimeout(() => {
      this.ringTimers.delete(callId);
      void this.db
        .query<{ connected: boolean }>('SELECT connected FROM calls WHERE id = $1 AND ended_at IS NULL', [callId])
        .then(([call]) => (call && !call.connected ? this.end(callId, 'missed', { unansweredOnly: true }) : undefined))
        .catch((error: unknown) => this.log.error({ err: error }, 'ring timeout failed'));
    }, this.config.ringSeconds * 1000);
    timer.unref();
    this.ringTimers.set(callId, timer);
  }

  private clearRingTimer(callId: number): void {
    const timer = this.ringTimers.get(callId);
    if (timer) clearTimeout(timer);
    this.ringTimers.delete(callId);
  }

  private announceParticipants(callId: number, roomId: string): void {
    const participants = Object.fromEntries(this.engine.participants(roomId));
    for (const connection of this.connections.get(callId)?.values() ?? []) connection.send('participants', participants);
  }

  private async runningIn(db: Db | Tx, chatId: number): Promise<CallRow | undefined> {
    const rows = await db.query<CallRow>(`SELECT ${CALL_COLUMNS} FROM calls WHERE chat_id = $1 AND ended_at IS NULL`, [chatId]);
    return rows[0];
  }

  /**
   * In a call: calling someone who has not answered yet, or in a running call's room. Whoever started a call that
   * others answered and then left it is free again, though the call goes on without them.
   */
  private async inCall(tx: Tx, userId: number): Promise<boolean> {
    const rows = await tx.query(
      `SELECT 1 FROM calls k
        WHERE k.ended_at IS NULL
          AND ((k.caller_id = $1 AND NOT k.connected)
               OR EXISTS (SELECT 1 FROM call_participants p WHERE p.call_id = k.id AND p.user_id = $1 AND p.left_at IS NULL))
        LIMIT 1`,
      [userId],
    );
    return rows.length > 0;
  }

  private async requireRunning(userId: number, chatId: number): Promise<CallRow> {
    const members = await memberIds(this.db, chatId);
    if (!members.includes(userId)) throw chatUnavailable();
    const call = await this.runningIn(this.db, chatId);
    if (!call) throw notFound('No call is running in this chat', 'no_call');
    return call;
  }
}

function info(row: CallRow): CallInfo {
  return { id: row.id, chat_id: row.chat_id, room_id: row.room_id, message_id: row.message_id };
}
