// Every constant of spec §9 (and the few of our own) in one place; components never hold a literal of these.
// The limits the server enforces as well come from the wire contract (packages/protocol).
import { CHAT_JOIN_CODE_PATTERN, limits, type LANGUAGES } from '@messenger/protocol';

export { AUTO_DELETE_INTERVALS, GENERATED_PASSWORD, LANGUAGES } from '@messenger/protocol';

export const PRODUCT_KEY = 'msgr';
/** The IndexedDB database of the warm start's session cache. */
export const SESSION_CACHE_DATABASE = `${PRODUCT_KEY}-cache`;

export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

export const THEMES = ['light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];
export const DEFAULT_THEME: Theme = 'light';

export const config = {
  /** Token storage lifetime: 300 days, both tokens. */
  tokenStorageDays: 300,
  /** Default cookie expiry. */
  cookieDays: 30,
  notificationsKept: 5,
  notificationDismissMs: 10_000,
  toastDismissMs: 3_000,
  incomingCallAutoCloseMs: 60_000,
  callRejectedNoticeMs: 5_000,
  expiryCheckMs: 1_000,
  /** How often a tab checks that the sign-in cookies still belong to the person it shows (another tab may change them). */
  sessionCookieCheckMs: 3_000,
  historyRefreshAfterHangMs: 1_000,
  socketNormalCloseCode: 1000,
  socketManualCloseReason: 'Manual close',
  codeResendDelayMs: 60_000,
  codeLength: 6,
  phoneMaxLength: limits.phoneMaxLength,
  searchMax: limits.searchMax,
  textMax: limits.textMax,
  nameMax: limits.nameMax,
  /** Staff notes about a person. */
  notesMax: limits.notesMax,
  usernameMax: limits.usernameMax,
  joinCodePattern: new RegExp(CHAT_JOIN_CODE_PATTERN),
  uploadLimitMb: limits.uploadLimitMb,
  uploadLimitStaffMb: limits.uploadLimitStaffMb,
  avatarMaxBytes: 4 * 1024 * 1024,
  sidebarWidthPx: 400,
  mobileBreakpointPx: 800,
  weekdayWindowDays: 7,
  callWindowMinPx: 400,
  /** Camera capture: at most 1280×720 at 30 fps (the browser and the SFU adapt below that). */
  cameraMaxWidth: 1280,
  cameraMaxHeight: 720,
  cameraMaxFps: 30,
  pingIntervalMs: 10_000,
  /** Messages per history page. */
  historyPageSize: 50,
  /** Reconnect back-off of the live sockets: first delay, ceiling. */
  reconnectBaseMs: 500,
  reconnectMaxMs: 30_000,
  /** How long a gap in the event sequence may stay open before the client asks for the missing range. */
  gapWaitMs: 500,
  /** Refresh the access token this long before it expires, so sockets never present a stale one. */
  tokenRefreshLeewayMs: 30_000,
  /** A send without acknowledgement after this long is resent (the client id makes it harmless). */
  sendAckTimeoutMs: 10_000,
  /** A hang-up not answered within this is given up (the closed meeting socket already took the person out). */
  hangAnswerMs: 10_000,
  /** While someone types, "typing" goes to the chat at most this often (the others show it for 6 s). */
  typingSignalEveryMs: 3_000,
  /** Sends on the chat socket waiting for their answer at once; the rest wait their turn, in order. */
  sendWindow: 16,
} as const;

/** The roles of spec §6. */
export const Role = {
  user: 0,
  manager: 1,
  admin: 2,
  topAdmin: 3,
} as const;
