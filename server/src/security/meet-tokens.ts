import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { hmacKey, type HmacKey } from './hmac-key.js';

const ISSUER = 'messenger';
const AUDIENCE = 'messenger-meet';
// Its own type and key: a meeting token opens one call's socket and nothing else.
const MEET_TYPE = 'meet+jwt';
const ALGORITHM = 'HS256';
export const MEET_TOKEN_TTL_SECONDS = 3600;

export interface MeetClaims {
  userId: number;
  chatId: number;
  roomId: string;
}

/** Meeting tokens (`GET /meet/get-token`): the key of a call's meeting socket, bound to a person, chat and room. */
export class MeetTokens {
  private readonly key: Promise<HmacKey>;

  constructor(secret: Uint8Array) {
    this.key = hmacKey(secret);
  }

  async issue(claims: MeetClaims): Promise<string> {
    return new SignJWT({ chat: claims.chatId, room: claims.roomId })
      .setProtectedHeader({ alg: ALGORITHM, typ: MEET_TYPE })
      .setSubject(String(claims.userId))
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${MEET_TOKEN_TTL_SECONDS}s`)
      .sign(await this.key);
  }

  async verify(token: string): Promise<MeetClaims | null> {
    try {
      const { payload } = await jwtVerify(token, await this.key, { algorithms: [ALGORITHM], typ: MEET_TYPE, issuer: ISSUER, audience: AUDIENCE, requiredClaims: ['sub', 'exp'] });
      const userId = Number(payload.sub);
      const chatId = Number(payload.chat);
      if (!Number.isSafeInteger(userId) || !Number.isSafeInteger(chatId) || typeof payload.room !== 'string') return null;
      return { userId, chatId, roomId: payload.room };
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) return null;
      throw error;
    }
  }
}
