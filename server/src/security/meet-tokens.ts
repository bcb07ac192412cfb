import { Hs256Tokens } from './hs256-tokens.js';

const ISSUER = 'messenger';
const AUDIENCE = 'messenger-meet';
// Its own type and key: a meeting token opens one call's socket and nothing else.
const MEET_TYPE = 'meet+jwt';
export const MEET_TOKEN_TTL_SECONDS = 3600;

export interface MeetClaims {
  userId: number;
  chatId: number;
  roomId: string;
}

/** Meeting tokens (`GET /meet/get-token`): the key of a call's meeting socket, bound to a person, chat and room. */
export class MeetTokens {
  private readonly tokens: Hs256Tokens;

  constructor(secret: Uint8Array) {
    this.tokens = new Hs256Tokens(secret, MEET_TYPE, ISSUER);
  }

  async issue(claims: MeetClaims): Promise<string> {
    return this.tokens.issue(
      { subject: claims.userId, audience: AUDIENCE, ttlSeconds: MEET_TOKEN_TTL_SECONDS },
      { chat: claims.chatId, room: claims.roomId },
    );
  }

  async verify(token: string): Promise<MeetClaims | null> {
    const payload = this.tokens.verify(token, AUDIENCE);
    if (!payload) return null;
    const userId = Number(payload.sub);
    const chatId = Number(payload.chat);
    if (!Number.isSafeInteger(userId) || !Number.isSafeInteger(chatId) || typeof payload.room !== 'string') return null;
    return { userId, chatId, roomId: payload.room };
  }
}
