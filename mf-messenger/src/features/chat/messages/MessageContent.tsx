import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon, formatByteSize, useMediaUrl, type ChatMessage } from '@messenger/shared';
import { VoicePlayer } from './VoicePlayer';
import { SaveAsLink } from './SaveAsLink';
import { useIsObserver } from '../observer';
import { CallContent } from './CallBubble';

/** The file part of a message: a picture, a video, a voice message player, or a document card; or a call. */
export function MessageContent({ message }: { message: ChatMessage }) {
  const { t, i18n } = useTranslation('messenger');
  const url = useMediaUrl(message.file?.path, useIsObserver());
  const file = message.file;
  if (message.type === 'call') return <CallContent message={message} />;
  if (!file) return null;
  if (message.type === 'image') {
    return url ? (
      <a href={url} target="_blank" rel="noreferrer" className="msg-media-link" aria-label={t('chat.openImage', { name: file.name })}>
        <img className="msg-image" src={url} alt={file.name} loading="lazy" width={message.meta.width} height={message.meta.height} />
      </a>
    ) : (
      <div className="msg-media-placeholder" role="img" aria-label={file.name} />
    );
  }
  if (message.type === 'video') {
    return url ? (
      // Captions for people's own videos do not exist; the file name labels it.
      // eslint-disable-next-line jsx-a11y/media-has-caption
      <video className="msg-video" src={url} controls preload="metadata" aria-label={file.name} />
    ) : (
      <div className="msg-media-placeholder" role="img" aria-label={file.name} />
    );
  }
  if (message.type === 'audio') {
    // A recorded voice message carries its length; an attached audio file (no length) is named by its file.
    if (message.meta.duration_ms !== undefined) return <VoicePlayer messageId={message.id} url={url} durationMs={message.meta.duration_ms} label={t('chat.voiceMessage')} />;
    return (
      <div className="msg-audio-file">
        <span className="msg-document-name">{file.name}</span>
        <VoicePlayer messageId={message.id} url={url} label={file.name} />
      </div>
    );
  }
  return (
    <div className="msg-document">
      <span className="msg-document-icon">
        <Icon name="file" size={32} />
      </span>
      <span className="msg-document-text">
        <span className="msg-document-name">{file.name}</span>
        <span className="msg-document-size">{formatByteSize(file.size, i18n.language)}</span>
      </span>
      <SaveAsLink path={file.path} name={file.name} />
    </div>
  );
}

/** Text with every case-insensitive occurrence of `query` marked (the in-chat search). */
export function Highlighted({ text, query }: { text: string; query?: string | undefined }) {
  const needle = query?.trim().toLocaleLowerCase();
  if (!needle) return <>{text}</>;
  const parts: Array<{ text: string; match: boolean }> = [];
  const haystack = text.toLocaleLowerCase();
  let from = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, from)) {
    if (at > from) parts.push({ text: text.slice(from, at), match: false });
    parts.push({ text: text.slice(at, at + needle.length), match: true });
    from = at + needle.length;
  }
  if (from < text.length) parts.push({ text: text.slice(from), match: false });
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>{part.match ? <mark>{part.text}</mark> : part.text}</Fragment>
      ))}
    </>
  );
}
