import { useTranslation } from 'react-i18next';
import { ConfirmDialog, chatsApi, errorText, useMessagesStore, useSubmit, type Chat } from '@messenger/shared';
import { useChatUiStore } from '../chatUiStore';

/**
 * Confirms and deletes the message picked in a message menu. It lives beside the list, not in the message's
 * (virtualized) row, so it survives the row leaving the rendered range. Once the server has deleted the
 * message it leaves this view at once; the `message-deleted` event removes it everywhere else.
 */
export function DeleteMessageDialog({ chat }: { chat: Chat }) {
  const { t } = useTranslation('messenger');
  const message = useChatUiStore((state) => state.deleting);
  const form = useSubmit((failure) => errorText(failure, 'messenger:chat.deleteFailed'), 'toast');
  if (!message || message.chat_id !== chat.id) return null;

  const close = () => useChatUiStore.getState().askDelete(null);
  const remove = () =>
    form.run(async () => {
      try {
        await chatsApi.deleteMessage(message.id, chat.last_message?.id === message.id);
        useMessagesStore.getState().remove(chat.id, message.id);
      } finally {
        // Closes after the answer either way (a failure is a toast), but only for the run that went: a second
        // click while the first is on its way is refused and must not close the dialog early.
        if (useChatUiStore.getState().deleting === message) close();
      }
    });

  return <ConfirmDialog title={t('chat.deleteTitle')} subtitle={t('chat.deleteSubtitle')} approveLabel={t('chat.delete')} danger onApprove={() => void remove()} onCancel={close} />;
}
