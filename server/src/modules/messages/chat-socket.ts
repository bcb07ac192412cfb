import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import type { Services } from '../../services.js';
import { HttpError, ServerStrings } from '../../http/errors.js';
import { unstorableText } from '../../http/text.js';
import { RateLimited } from '../../http/rate-limits.js';
import { CloseCode } from '../realtime/socket-guard.js';
import { clientFrame, type ChatRefusal, type SendOrForwardFrame } from './frames.js';
import { SocketPacing } from './pacing.js';
import type { MessagesService, SendResult } from './service.js';

/** How long a cut-off flooder has to finish the closing handshake before its connection is dropped. */
const CUT_OFF_GRACE_MS = 1000;

interface Link {
  send(frame: unknown): boolean;
  sendText(text: string): boolean;
}

/**
 * One chat socket. Frames are read in the order they arrive and sends are handed to the message writer in that
 * order without waiting for each other's commit, so one client can have several sends in one batch; answers go
 * out in the order the frames came, each `ack` only after its message is committed.
 */
export class ChatSocketSession {
  /** Frames read and checked, one after another. */
  private reading: Promise<void> = Promise.resolve();
  /** Answers written, in frame order. */
  private answering: Promise<void> = Promise.resolve();
  private readonly pacing = new SocketPacing();

  constructor(
    private readonly userId: number,
    private readonly socket: WebSocket,
    private readonly link: Link,
    private readonly services: Services,
    private readonly messages: MessagesService,
    private readonly log: FastifyBaseLogger,
  ) {}

  receive(data: unknown, isBinary: boolean): void {
    if (this.pacing.cutOff) return;
    if (!this.pacing.admit()) return this.cutOff();
    this.reading = this.reading
      .then(() => this.read(data, isBinary))
      .catch((error: unknown) => {
        this.log.error({ err: error }, 'chat frame failed');
        this.answer(async () => undefined);
      });
  }

  private async read(data: unknown, isBinary: boolean): Promise<void> {
    if (this.pacing.cutOff) return;
    let frame: unknown;
    try {
      if (isBinary) throw new Error('binary');
      frame = JSON.parse(String(data));
    } catch {
      return this.answer(async () => this.link.send({ type: 'error', error: 'bad_frame', message: ServerStrings.cannotParse }));
    }
    const unstorable = unstorableText(frame);
    if (!clientFrame.Check(frame) || unstorable) {
      const clientId = (frame as { client_id?: unknown } | null)?.client_id;
      const first = clientFrame.Check(frame) ? undefined : clientFrame.Errors(frame)[0];
      const problem = first ? `${first.instancePath || '/'} ${first.message}` : (unstorable?.message ?? 'invalid frame');
      return this.answer(async () =>
        this.link.send({
          type: 'error',
          error: 'bad_frame',
          message: `${ServerStrings.cannotParse}: ${problem}`,
          ...(typeof clientId === 'string' ? { client_id: clientId } : {}),
        }),
      );
    }
    if (frame.type === 'ping') return this.answer(async () => this.link.send({ type: 'pong' }));
    if (frame.type === 'typing') {
      // In frame order with this socket's messages: after the ones sent before it are stored (the others see
      // the message, then that the next one is being typed), and before the next frame is read (a message sent
      // right after it must not arrive before it: "typing" would then show for a message already there).
      await this.answering;
      let refused: { error: unknown } | null = null;
      try {
        await this.services.typing.typing(this.userId, frame.chat_id);
      } catch (error) {
        refused = { error };
      }
      // Only a refusal is answered: a signal that went out needs no answer.
      return this.answer(async () => {
        if (refused) this.link.send(this.refusal(refused.error, undefined, 'typing signal failed'));
      });
    }
    if (frame.type === 'hang') {
      const chatId = Number(frame.text);
      return this.answer(async () => {
        try {
          await this.services.calls.hang(this.userId, chatId, frame.call_id);
          this.link.send({ type: 'hung', chat_id: chatId });
        } catch (error) {
          // The chat id tells the client which hang-up was refused (a typing refusal names none).
          this.link.send({ ...this.refusal(error, undefined, 'hang-up failed'), chat_id: chatId });
        }
      });
    }
    await this.readSend(frame);
  }

  private async readSend(frame: SendOrForwardFrame): Promise<void> {
    // What they type next in this chat is a new message: its first signal goes out at once.
    this.services.typing.sent(this.userId, frame.chat_id);
    let stored: Promise<SendResult>;
    try {
      this.pacing.checkOrder(frame.client_id);
      await this.services.rateLimits.take('messages', this.userId);
      stored = this.messages.send(this.userId, frame);
      // Its answer waits behind the earlier ones (a hang-up may still be ending its call): a refusal that comes
      // first is handled there, not left unhandled meanwhile — that would end the process.
      stored.catch(() => undefined);
    } catch (error) {
      if (error instanceof RateLimited && !this.pacing.refused(frame.client_id, error)) return this.cutOff();
      return this.answer(async () => this.link.send(this.refusal(error, frame.client_id, 'send failed')));
    }
    this.answer(async () => {
      try {
        const result = await stored;
        const message = result.messageJson ?? JSON.stringify(result.message);
        this.link.sendText(`{"type":"ack","client_id":${JSON.stringify(frame.client_id)},"message":${message}}`);
      } catch (error) {
        this.link.send(this.refusal(error, frame.client_id, 'send failed'));
      }
    });
  }

  /** Queues an answer behind the earlier ones; the frame counts as handled once it is written. */
  private answer(write: () => Promise<unknown>): void {
    this.answering = this.answering
      .then(async () => {
        await write();
      })
      .catch((error: unknown) => this.log.error({ err: error }, 'chat answer failed'))
      .finally(() => this.pacing.handled());
  }

  private refusal(error: unknown, clientId: string | undefined, what: string): ChatRefusal {
    const about = clientId === undefined ? {} : { client_id: clientId };
    if (error instanceof RateLimited) {
      return { type: 'error', ...about, error: error.code, message: error.message, status: error.statusCode, retry_after_ms: error.retryAfterMs };
    }
    if (error instanceof HttpError) return { type: 'error', ...about, error: error.code, message: error.message, status: error.statusCode };
    this.log.error({ err: error }, what);
    return { type: 'error', ...about, error: 'internal', message: 'Internal server error', status: 500 };
  }

  private cutOff(): void {
    this.socket.close(CloseCode.tooManyFrames, 'too many frames');
    setTimeout(() => this.socket.terminate(), CUT_OFF_GRACE_MS).unref();
  }
}
