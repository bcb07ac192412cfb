import { MediaAccessError, config, errorText, i18n, useNotificationsStore, type NotificationKind } from '@messenger/shared';

/** The call notices of spec §4 and §8. */
export type CallNoticeKind = 'rejected' | 'busy' | 'alreadyInCall' | 'mediaFailed' | 'screenShareFailed' | 'roomFull' | 'connectionLost';

const NOTICES: Record<CallNoticeKind, { key: string; kind: NotificationKind; ms?: number }> = {
  rejected: { key: 'calls:notice.callRejected', kind: 'warning', ms: config.callRejectedNoticeMs },
  busy: { key: 'calls:notice.busy', kind: 'warning' },
  alreadyInCall: { key: 'calls:notice.alreadyInCall', kind: 'warning' },
  mediaFailed: { key: 'calls:notice.mediaFailed', kind: 'error' },
  screenShareFailed: { key: 'calls:notice.screenShareFailed', kind: 'error' },
  roomFull: { key: 'calls:notice.roomFull', kind: 'warning' },
  connectionLost: { key: 'calls:notice.connectionLost', kind: 'error' },
};

function messageOf(error: unknown): string {
  if (typeof error === 'string') return error.trim();
  if (error instanceof Error) return error.message.trim();
  return '';
}

/**
 * Shows a call notice in the notifications centre, in the person's language: the call was rejected (5 s), the
 * other person is busy, a second call was attempted, or the camera, microphone or screen could not be used. For
 * the last two, pass the error: its text is shown when it has one, else the generic text. Returns the notice id.
 */
export function callNotice(kind: CallNoticeKind, error?: unknown): number {
  const notice = NOTICES[kind];
  // The browser's refusal of a device, in the person's language; another error's own text when it has one.
  // (A screen share the person cancelled, or one that failed, says so: its words are not the camera's.)
  if (error instanceof MediaAccessError && kind === 'mediaFailed') {
    return useNotificationsStore.getState().push({ kind: notice.kind, text: errorText(error, notice.key) }, notice.ms);
  }
  if (error instanceof MediaAccessError) return useNotificationsStore.getState().push({ kind: notice.kind, text: i18n.t(notice.key) }, notice.ms);
  const detail = kind === 'mediaFailed' || kind === 'screenShareFailed' ? messageOf(error) : '';
  return useNotificationsStore.getState().push({ kind: notice.kind, text: detail || i18n.t(notice.key) }, notice.ms);
}
