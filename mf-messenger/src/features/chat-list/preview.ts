import { i18n, type Message } from '@messenger/shared';

/** One line about a message for lists and notifications: its text, or what kind of file it carries. */
export function messagePreview(message: Pick<Message, 'type' | 'text' | 'file' | 'meta'>): string {
  if (message.text) return message.text;
  switch (message.type) {
    case 'image':
      return i18n.t('messenger:chat.kindImage');
    case 'video':
      return i18n.t('messenger:chat.kindVideo');
    case 'audio':
      // A recorded voice message carries its length; an attached audio file is named by its file.
      return message.meta.duration_ms === undefined && message.file ? message.file.name : i18n.t('messenger:chat.voiceMessage');
    case 'document':
      return message.file?.name ?? i18n.t('messenger:chat.kindDocument');
    case 'call':
      return i18n.t('messenger:chat.kindCall');
    default:
      return '';
  }
}
