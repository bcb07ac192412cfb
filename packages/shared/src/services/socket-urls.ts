// Socket addresses, in a module of their own (no imports): the meeting head start (calls/meeting-head-start.ts)
// runs before module federation has loaded anything shared, so it must not pull the API client in.

/** ws(s)://host — the sockets live on the page's own origin, under /api. */
export function socketOrigin(): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}`;
}

/** The meeting socket of a chat's call (docs/api.md), opened with a meeting token. */
export function meetingSocketUrl(chatId: number, token: string): string {
  return `${socketOrigin()}/api/meet/room/${chatId}/websocket?token=${encodeURIComponent(token)}`;
}
