import { fill, stringsFor } from './strings';

/** What the server pushes (server/src/modules/push/notifier.ts, docs/protocol.md "Push"). */
export type PushPayload =
  | {
      kind: 'message';
      chat_id: number;
      message_id: number;
      sender: string | null;
      group: string | null;
      text: string | null;
      mention: boolean;
      silent: boolean;
      language: string;
    }
  | {
      kind: 'call' | 'call-missed';
      chat_id: number;
      call_id: number;
      caller: string | null;
      group: string | null;
      silent: boolean;
      language: string;
    };

/** Fixed paths (copied from src/pwa by the build): notifications name them long after a deploy. */
export const NOTIFICATION_ICON = '/icons/icon-192.png';
export const NOTIFICATION_BADGE = '/icons/badge-96.png';

/** The payload if it is one the worker understands; anything else is ignored. */
export function parsePush(data: unknown): PushPayload | null {
  if (typeof data !== 'object' || data === null) return null;
  const payload = data as Record<string, unknown>;
  if (typeof payload.chat_id !== 'number') return null;
  if (payload.kind === 'message' && typeof payload.message_id === 'number') return payload as PushPayload;
  if ((payload.kind === 'call' || payload.kind === 'call-missed') && typeof payload.call_id === 'number') return payload as PushPayload;
  return null;
}

export interface RenderedNotification {
  title: string;
  options: NotificationOptions & { renotify?: boolean; data: { chat_id: number } };
}

/**
 * The notification for a push, worded as the app's own (shell/src/notifications): "Anna · Team" over the text,
 * or "New message" when the text may not be shown. One notification per chat (its tag), replaced by the next
 * but still announced; a ring is replaced by "Missed call" (same tag) when nobody answered.
 */
export function renderPush(payload: PushPayload): RenderedNotification {
  const strings = stringsFor(payload.language);
  const common = { icon: NOTIFICATION_ICON, badge: NOTIFICATION_BADGE, silent: payload.silent, renotify: true, data: { chat_id: payload.chat_id } };
  if (payload.kind !== 'message') {
    const [single, group] = payload.kind === 'call' ? [strings.incomingCall, strings.groupCall] : [strings.missedCall, strings.missedGroupCall];
    return {
      title: payload.caller ?? strings.appName,
      options: {
        ...common,
        body: payload.group ? fill(group, { group: payload.group }) : single,
        tag: `call-${payload.call_id}`,
        // A missed call replaces the ring quietly: the ring was the alert.
        renotify: payload.kind === 'call',
      },
    };
  }
  const title = [payload.sender, payload.group].filter(Boolean).join(' · ') || strings.appName;
  return {
    title,
    options: { ...common, body: payload.text ?? (payload.mention ? strings.mentioned : strings.newMessage), tag: `chat-${payload.chat_id}` },
  };
}
