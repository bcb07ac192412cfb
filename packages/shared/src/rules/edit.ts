import type { ChatMessage } from '../model/types';

/** How long after sending it its sender may edit a message (the server refuses later edits too). */
export const EDIT_WINDOW_MS = 48 * 60 * 60 * 1000;

/** Whether I may edit this message now: my own stored text (not a forward), sent less than 48 hours ago. */
export function canEdit(message: ChatMessage, myId: number | undefined, now = Date.now()): boolean {
  return (
    message.sender_id === myId &&
    message.state === 'sent' &&
    message.type === 'text' &&
    message.forwarded_from === null &&
    now - Date.parse(message.created_at) < EDIT_WINDOW_MS
  );
}
