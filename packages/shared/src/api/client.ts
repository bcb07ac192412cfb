import { config } from '../config';
import type { JwtInfo } from '../model/types';
import { msUntilExpiry, tokenStorage } from '../storage/tokens';
import { ApiError } from './errors';
import { checkAnswer } from './contract-check';

export type Query = Record<string, string | number | boolean | undefined | null>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  /** Send the access token (default) or not (sign-in calls, public files). */
  auth?: boolean;
  /** On a 401, refresh the access token and retry once (default). Off where another caller owns the refresh. */
  refresh?: boolean;
  signal?: AbortSignal;
}

/** Calls that answer 401 for a wrong code or password, not for an expired token: never refreshed on. */
const SIGN_IN_PATHS = ['/auth/send-code', '/auth/sign-in', '/auth/sign-in-manager', '/auth/sign-in-manager-extra', '/auth/refresh'];
/**
 * A 401 of a signed-in call that refuses what was typed (the current password of `/user/password`), not the token:
 * sent again it would count twice toward the sign-in lockout.
 */
const WRONG_CREDENTIALS = new Set(['wrong_password']);

/**
 * The one place the client talks HTTP to the server. It adds the access token; on a 401 it refreshes once —
 * one refresh shared by every caller waiting at that moment — and retries once; if the refresh is refused the
 * session is over and `onSessionEnded` sends the person to sign in.
 */
export class ApiClient {
  private refreshing: Promise<string> | null = null;
  private onSessionEnded: (reason?: ApiError) => void = () => undefined;

  constructor(
    private readonly baseUrl = '/api',
    private readonly fetchImpl: typeof fetch = (...args) => fetch(...args),
  ) {}

  /** `reason`: the server's refusal that ended it (blocked, deleted…), when there was one. */
  setSessionEndedHandler(handler: (reason?: ApiError) => void): void {
    this.onSessionEnded = handler;
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const useToken = options.auth !== false;
    const first = await this.send(method, path, options, useToken ? tokenStorage.access : undefined);
    let answer: T;
    if (first.status !== 401 || !useToken || options.refresh === false || SIGN_IN_PATHS.includes(path)) answer = await this.parse<T>(first);
    else {
      const refused = await this.toError(first);
      if (WRONG_CREDENTIALS.has(refused.code)) throw refused;
      answer = await this.parse<T>(await this.send(method, path, options, await this.refreshAccessToken()));
    }
    // Development and tests only: production builds drop this branch, and with it the schemas.
    if (process.env.NODE_ENV !== 'production') checkAnswer(method, path, answer);
    return answer;
  }

  get<T>(path: string, query?: Query): Promise<T> {
    return this.request<T>('GET', path, { query });
  }

  post<T>(path: string, body?: unknown, query?: Query): Promise<T> {
    return this.request<T>('POST', path, { body, query });
  }

  put<T>(path: string, body?: unknown, query?: Query): Promise<T> {
    return this.request<T>('PUT', path, { body, query });
  }

  delete<T>(path: string, query?: Query): Promise<T> {
    return this.request<T>('DELETE', path, { query });
  }

  /**
   * Exchanges the refresh token for new tokens. Concurrent callers share one request. A refusal (4xx) ends the
   * session; a network failure does not (the person is offline, not signed out) and is rethrown.
   */
  refreshAccessToken(): Promise<string> {
    this.refreshing ??= this.doRefresh().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /** An access token good for a while yet (sockets present it once, at connection). */
  async freshAccessToken(): Promise<string> {
    const token = tokenStorage.access;
    if (token && msUntilExpiry(token) > config.tokenRefreshLeewayMs) return token;
    return this.refreshAccessToken();
  }

  /** Ends the session locally (tokens gone) and tells the app, with the server's reason when there is one. */
  endSession(reason?: ApiError): void {
    tokenStorage.clear();
    this.onSessionEnded(reason);
  }

  private async doRefresh(): Promise<string> {
    const refreshToken = tokenStorage.refresh;
    if (!refreshToken) {
      this.endSession();
      throw new ApiError(401, 'no_session', 'Not signed in');
    }
    const response = await this.send('POST', '/auth/refresh', {}, refreshToken);
    if (response.status >= 400 && response.status < 500) {
      const error = await this.toError(response);
      this.endSession(error);
      throw error;
    }
    const { jwt_info } = await this.parse<{ jwt_info: JwtInfo }>(response);
    tokenStorage.save(jwt_info);
    return jwt_info.access_token;
  }

  private async send(method: string, path: string, options: RequestOptions, token: string | undefined): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    let body: BodyInit | undefined;
    if (options.body instanceof FormData) body = options.body;
    else if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    try {
      return await this.fetchImpl(this.url(path, options.query), { method, headers, body, signal: options.signal });
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      throw new ApiError(0, 'network', 'The server cannot be reached');
    }
  }

  private url(path: string, query: Query | undefined): string {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) params.set(key, String(value));
    }
    const search = params.toString();
    return `${this.baseUrl}${path}${search ? `?${search}` : ''}`;
  }

  private async parse<T>(response: Response): Promise<T> {
    if (!response.ok) throw await this.toError(response);
    if (response.status === 204) return undefined as T;
    return (await response.json()) as T;
  }

  private async toError(response: Response): Promise<ApiError> {
    let code = 'http_error';
    let message = response.statusText || `HTTP ${response.status}`;
    try {
      const body = (await response.json()) as { error?: string; message?: string };
      code = body.error ?? code;
      message = body.message ?? message;
    } catch {
      // Not JSON (a proxy's error page): keep the status text.
    }
    const retryAfter = Number(response.headers.get('retry-after'));
    return new ApiError(response.status, code, message, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined);
  }
}

/** The app's single client instance. */
export const api = new ApiClient();
