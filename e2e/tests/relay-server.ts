/**
 * The second server the end-to-end run starts (e2e/playwright.config.ts): the same build, its own database, and
 * calls in relay-only mode through a coturn the run starts too. Tests of calls through TURN open their pages here,
 * e.g. `browser.newContext({ baseURL: RELAY_BASE_URL, permissions: ['camera', 'microphone'] })`.
 */
export const RELAY_PORT = Number(process.env.E2E_RELAY_PORT ?? 18_081);
export const RELAY_BASE_URL = `http://localhost:${RELAY_PORT}`;

/** coturn's port (UDP and TCP, on 127.0.0.1); not 3478, so a system coturn does not clash. */
export const TURN_PORT = Number(process.env.E2E_TURN_PORT ?? 3479);
/** What the relay server hands browsers as `ice_servers` (with credentials from the run's random secret). */
export const TURN_URL = `turn:127.0.0.1:${TURN_PORT}?transport=udp`;
