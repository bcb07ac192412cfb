import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog, chatsApi, errorText, useMessagesStore, useNotificationsStore, type Chat } from '@messenger/shared';
import { useChatUiStore } from '../chatUiStore';

/**
 * Confirms and deletes the message picked in a message menu. It lives beside the list, not in the message's
 * (virtualized) row, so it survives the row leaving the rendered range. Once the server has deleted the
 * message it leaves this view at once; the `message-deleted` event removes it everywhere else.
 */
export function DeleteMessageDialog({ chat }: { chat: Chat }) {
  const { t } = useTranslation('messenger');
  const message = useChatUiStore((state) => state.deleting);
  const [busy, setBusy] = useState(false);
  if (!message || message.chat_id !== chat.id) return null;

  const close = () => useChatUiStore.getState().askDelete(null);
  const remove = async () => {
    if (busy) return;
    setBusy(true);
    try {
      await chatsApi.deleteMessage(message.id, chat.last_message?.id === message.id);
      useMessagesStore.getState().remove(chat.id, message.id);
    } catch (error) {
      useNotificationsStore.getState().push({ kind: 'error', text: errorText(error, 'messenger:chat.deleteFailed') });
    } finally {
      setBusy(false);
      if (useChatUiStore.getState().deleting === message) close();
    }
  };

  return <ConfirmDialog title={t('chat.deleteTitle')} subtitle={t('chat.deleteSubtitle')} approveLabel={t('chat.delete')} danger onApprove={() => void remove()} onCancel={close} />;
}
