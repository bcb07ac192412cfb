import { config, eventBus, i18n, useChatsStore, useNotificationsStore } from '@messenger/shared';
import { useChatUiStore } from './chatUiStore';
import { stopVoicePlayback, useVoicePlayback } from './messages/voicePlayback';

/**
 * A message is gone: whatever the chat view was doing with it ends (an edit, a reply being written, a dialog about
 * it, its sound playing), and a person looking at that chat is told why their edit or reply went away. Without
 * this an edit of a message deleted meanwhile stayed open and failed on Save with "Message not found".
 */
export function messageGone(chatId: number, messageId: number): void {
  // A deleted voice message does not go on being heard.
  if (useVoicePlayback.getState().current === messageId) stopVoicePlayback();
  const { editing, replying } = useChatUiStore.getState().forgetMessage(chatId, messageId);
  if (!(editing || replying) || useChatsStore.getState().activeChatId !== chatId) return;
  const key = editing ? 'messenger:chat.editTargetDeleted' : 'messenger:chat.replyTargetDeleted';
  useNotificationsStore.getState().push({ kind: 'info', text: i18n.t(key) }, config.notificationDismissMs);
}

let following = false;

/** Follows deletions from the live events, once per page (a chat not on screen keeps its edit state too). */
export function followDeletedMessages(): void {
  if (following) return;
  following = true;
  eventBus.on('message-deleted', (event) => messageGone(event.additional_info.chat_id, event.additional_info.message_id));
}
