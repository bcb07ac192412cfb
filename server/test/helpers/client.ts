import { randomInt, randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import Value from 'typebox/value';
import { MeetingEnvelope, chatServerFrameSchema, flowFrameSchema, meetingFrameSchema, mismatches, type TSchema } from '@messenger/protocol';
import type { TestServer } from './server.js';

/**
 * How long a test waits for something that should happen by itself. Generous on purpose: the suite must pass on a
 * busy 2-core machine (another build beside it), and a wait that succeeds returns as soon as its condition holds.
 */
export const WAIT_MS = 30_000;

/** Polls `condition` (every 20 ms) until it holds; fails naming `what` after `timeoutMs`. */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** A JSON request against the test server; never throws on a status. */
export async function request<T = any>(
  server: TestServer,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${server.url}/api${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

/** A valid mobile number nobody else in this run has (German 0151 range). */
export function randomPhone(): string {
  return `+49151${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
}

export interface Person {
  id: number;
  phone: string;
  token: string;
  refresh: string;
}

export async function codeFor(server: TestServer, phone: string): Promise<string> {
  const outbox = await request(server, 'GET', `/dev/sms?phone=${encodeURIComponent(phone)}`);
  if (outbox.status !== 200) throw new Error(`no code for ${phone}: ${JSON.stringify(outbox.body)}`);
  return outbox.body.code;
}

/** Signs a person in through the real flow (send-code, the dev outbox, sign-in) and names them. */
export async function signUp(server: TestServer, options: { phone?: string; name?: string; inviteCode?: string } = {}): Promise<Person> {
  const phone = options.phone ?? randomPhone();
  const sent = await request(server, 'POST', '/auth/send-code', { body: { phone } });
  if (sent.status !== 200) throw new Error(`send-code ${sent.status} ${JSON.stringify(sent.body)}`);
  const code = await codeFor(server, phone);
  const query = options.inviteCode ? `?code=${encodeURIComponent(options.inviteCode)}` : '';
  const signedIn = await request(server, 'POST', `/auth/sign-in${query}`, { body: { phone, code } });
  if (signedIn.status !== 200) throw new Error(`sign-in ${signedIn.status} ${JSON.stringify(signedIn.body)}`);
  const token = signedIn.body.jwt_info.access_token;
  const me = await request(server, 'GET', '/user', { token });
  if (options.name) await request(server, 'PUT', '/user/edit', { token, body: { name: options.name } });
  return { id: me.body.user.id, phone, token, refresh: signedIn.body.jwt_info.refresh_token };
}

/** Makes `a` and `b` contacts and opens their private chat; returns its id. */
export async function privateChat(server: TestServer, a: Person, b: Person): Promise<number> {
  await request(server, 'POST', '/user/contacts/add', { token: a.token, body: { user_phone: b.phone, name: 'B' } });
  const created = await request(server, 'POST', '/chat/create', {
    token: a.token,
    body: { chat_type: 'private', participants: [b.id] },
  });
  if (created.status >= 300) throw new Error(`chat/create ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.chat.id;
}

/** Why `frame` is outside the contract (an unknown kind, or a part its schema refuses), or nothing if it is not. */
function contractBreach(frame: any, { schema, part }: { schema: TSchema | undefined; part: unknown }): Error | undefined {
  const name = frame.event_type ?? frame.type ?? frame.event;
  if (!schema) return new Error(`the server sent a frame the contract does not know: ${JSON.stringify(frame).slice(0, 500)}`);
  if (Value.Check(schema, part)) return undefined;
  return new Error(`the server's ${name} frame is outside the contract: ${mismatches(schema, part)} — ${JSON.stringify(frame).slice(0, 500)}`);
}

/**
 * What the server may send on a socket, by its path (the wire contract, packages/protocol): the schema of a frame,
 * and the part of the frame it describes. A meeting frame's part is its `data`, parsed, once its envelope is
 * `{event, data}` (else the envelope is what breaks the contract).
 */
function socketContract(url: string): ((frame: any) => { schema: TSchema | undefined; part: unknown }) | undefined {
  const path = new URL(url).pathname;
  if (path.endsWith('/user/flow')) return (frame) => ({ schema: flowFrameSchema(frame), part: frame.additional_info });
  if (path.endsWith('/chat/socket')) return (frame) => ({ schema: chatServerFrameSchema(frame), part: frame });
  if (/\/meet\/room\/[^/]+\/websocket$/.test(path)) {
    return (frame) => {
      if (!Value.Check(MeetingEnvelope, frame)) return { schema: MeetingEnvelope, part: frame };
      let data: unknown = frame.data; // text that is no JSON fails its schema as the text it is
      try {
        data = JSON.parse(frame.data);
      } catch {
        // shown as it came
      }
      return { schema: meetingFrameSchema(frame, 'server'), part: data };
    };
  }
  return undefined;
}

/** A WebSocket that records every frame and lets a test wait for the ones it expects. */
export class SocketProbe {
  readonly frames: any[] = [];
  private waiters: Array<() => void> = [];
  closeCode: number | undefined;
  /** The first frame the server sent outside the contract: every wait on this socket fails with it. */
  private outsideContract: Error | undefined;

  constructor(
    readonly socket: WebSocket,
    contract?: (frame: any) => { schema: TSchema | undefined; part: unknown },
  ) {
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data));
      this.frames.push(frame);
      if (contract && !this.outsideContract) this.outsideContract = contractBreach(frame, contract(frame));
      this.wake();
    });
    socket.on('close', (code) => {
      this.closeCode = code;
      this.wake();
    });
  }

  static open(url: string, headers: Record<string, string> = {}): Promise<SocketProbe> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { headers });
      const probe = new SocketProbe(socket, socketContract(url));
      socket.once('open', () => resolve(probe));
      socket.once('unexpected-response', (req, res) => {
        req.destroy(); // with this listener set, ws leaves aborting the refused request to us
        reject(new Error(`upgrade refused: ${res.statusCode}`));
      });
      socket.once('error', reject);
    });
  }

  /** Waits until `predicate` holds for the frames received so far. */
  async until(predicate: (frames: any[]) => boolean, timeoutMs = WAIT_MS): Promise<any[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.outsideContract) throw this.outsideContract;
      if (predicate(this.frames)) break;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out; frames so far: ${JSON.stringify(this.frames).slice(0, 2000)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.frames;
  }

  async closed(timeoutMs = WAIT_MS): Promise<number> {
    await this.until(() => this.closeCode !== undefined, timeoutMs);
    return this.closeCode!;
  }

  send(frame: unknown): void {
    this.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  close(): void {
    this.socket.close();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

export function flowUrl(server: TestServer, token: string, since?: number | string): string {
  return `${server.wsUrl}/api/user/flow?token=${encodeURIComponent(token)}${since === undefined ? '' : `&since=${encodeURIComponent(since)}`}`;
}

export function chatSocketUrl(server: TestServer, token: string): string {
  return `${server.wsUrl}/api/chat/socket?token=${encodeURIComponent(token)}`;
}

/** Sends one text over a chat socket and waits for its acknowledgement (or error). */
export async function sendText(server: TestServer, person: Person, chatId: number, text: string, clientId = randomUUID()): Promise<any> {
  const socket = await SocketProbe.open(chatSocketUrl(server, person.token));
  try {
    socket.send({ type: 'send', client_id: clientId, chat_id: chatId, text });
    const frames = await socket.until((all) => all.some((frame) => frame.client_id === clientId));
    return frames.find((frame) => frame.client_id === clientId);
  } finally {
    socket.close();
  }
}

/** The event frames (those with a seq) among a socket's frames. */
export function events(frames: any[]): any[] {
  return frames.filter((frame) => typeof frame.seq === 'number');
}

/** Opens a person's live-event socket and waits until it is caught up (`ready`). */
export async function openFlow(server: TestServer, person: Person): Promise<SocketProbe> {
  const flow = await SocketProbe.open(flowUrl(server, person.token));
  await flow.until((frames) => frames.some((frame) => frame.event_type === 'ready'));
  return flow;
}

/** Sends any `send` frame (fields besides type and client id are the caller's) and returns the ack or error. */
export async function sendFrame(server: TestServer, person: Person, frame: Record<string, unknown>): Promise<any> {
  const clientId = (frame.client_id as string | undefined) ?? randomUUID();
  const socket = await SocketProbe.open(chatSocketUrl(server, person.token));
  try {
    socket.send({ type: 'send', client_id: clientId, ...frame });
    const frames = await socket.until((all) => all.some((reply) => reply.client_id === clientId));
    return frames.find((reply) => reply.client_id === clientId);
  } finally {
    socket.close();
  }
}

/** The first bytes of a real PNG, then filler: enough for the server's type check. */
export function pngBytes(size = 64): Buffer {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, Buffer.alloc(Math.max(0, size - signature.length), 7)]);
}

/** Uploads one file the way a browser does (multipart, field `file`). */
export async function upload(
  server: TestServer,
  person: Person | undefined,
  file: { name?: string; type?: string; data?: Buffer | string } = {},
  field = 'file',
  path = '/file/upload',
): Promise<HttpResult> {
  const form = new FormData();
  const data = file.data ?? pngBytes();
  form.append(field, new Blob([typeof data === 'string' ? data : new Uint8Array(data)], { type: file.type ?? 'image/png' }), file.name ?? 'picture.png');
  const response = await fetch(`${server.url}/api${path}`, {
    method: 'POST',
    headers: person ? { authorization: `Bearer ${person.token}` } : {},
    body: form,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

/** Media tokens for paths (those the person may see). */
export async function mediaTokens(server: TestServer, person: Person, paths: string[]): Promise<Record<string, string>> {
  const response = await request(server, 'POST', '/file/tokens', { token: person.token, body: { paths } });
  if (response.status !== 200) throw new Error(`file/tokens ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.tokens;
}

/** Waits for a flow event matching `predicate` and returns it. */
export async function nextEvent(flow: SocketProbe, predicate: (event: any) => boolean, timeoutMs = WAIT_MS): Promise<any> {
  const frames = await flow.until((all) => events(all).some(predicate), timeoutMs);
  return events(frames).find(predicate);
}
