/**
 * User Timing marks for the stages of joining a call (`call:<stage>`), read by the call set-up benchmark
 * (`npm run bench`) to say where the time from Accept to the first picture goes. A mark costs a few
 * microseconds and is visible in the browser's performance panel too.
 */
export type CallStage =
  // 'head-start' and the first 'media', 'ticket' and 'socket-open' may come from the shell's entry
  // (packages/shared/src/calls/meeting-head-start.ts), which sets the same marks.
  | 'head-start'
  | 'meeting-page'
  | 'running-checked'
  | 'media'
  | 'ticket'
  | 'socket-open'
  | 'offer'
  | 'answer-sent'
  | 'ice-connected'
  | 'connected'
  | 'remote-track';

export function markCallStage(stage: CallStage): void {
  // A measurement never breaks a call: where User Timing is missing (an old browser, a test's DOM) it is skipped.
  if (typeof performance?.getEntriesByName !== 'function') return;
  // Only the first of each: a reconnect's stages would blur the set-up figure.
  if (performance.getEntriesByName(`call:${stage}`, 'mark').length === 0) performance.mark(`call:${stage}`);
}
