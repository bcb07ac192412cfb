import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '@messenger/shared';
import { useVoicePlayback } from './voicePlayback';

function clock(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/**
 * A voice message: play/pause and a progress bar that can be dragged. The recorded length comes with the
 * message, because Chrome's WebM recordings carry no duration of their own; an attached audio file says its own
 * (read here, from its metadata only). The sound itself plays in `voicePlayback`, outside the virtualized list, so
 * it goes on when this row is scrolled out of the rendered range and back.
 */
export function VoicePlayer({
  messageId,
  url,
  durationMs,
  label,
}: {
  messageId: number;
  url: string | null;
  durationMs?: number | undefined;
  label: string;
}) {
  const { t } = useTranslation('messenger');
  const isCurrent = useVoicePlayback((state) => state.current === messageId);
  const playing = useVoicePlayback((state) => state.current === messageId && state.playing);
  const position = useVoicePlayback((state) => (state.current === messageId ? state.positionMs : 0));
  /** The file's own length, for audio that came without one (an attached file, not a recording). */
  const [fileDuration, setFileDuration] = useState<number | null>(null);
  const playedDuration = useVoicePlayback((state) => (state.current === messageId ? state.durationMs : null));
  const duration = durationMs ?? playedDuration ?? fileDuration ?? 0;

  const toggle = () => {
    if (url) useVoicePlayback.getState().toggle(messageId, url);
  };

  return (
    <div className="msg-voice" role="group" aria-label={label}>
      {/* Only to read an attached file's length; a voice message has no captions to offer. */}
      {url && durationMs === undefined && (
        // eslint-disable-next-line jsx-a11y/media-has-caption
        <audio
          src={url}
          preload="metadata"
          onLoadedMetadata={(event) => {
            const seconds = event.currentTarget.duration;
            setFileDuration(Number.isFinite(seconds) ? seconds * 1000 : null);
          }}
        />
      )}
      <button type="button" className="msg-voice-play" onClick={toggle} disabled={!url} aria-label={playing ? t('chat.pause') : t('chat.play')}>
        <Icon name={playing ? 'pause' : 'play'} />
      </button>
      <input
        type="range"
        className="msg-voice-progress"
        aria-label={t('chat.playbackPosition')}
        min={0}
        max={Math.max(duration, position, 1)}
        step={100}
        value={position}
        disabled={!url}
        onChange={(event) => {
          if (url) useVoicePlayback.getState().seek(messageId, url, Number(event.target.value));
        }}
      />
      <span className="msg-voice-time">{clock(playing || (isCurrent && position > 0) ? position : duration)}</span>
    </div>
  );
}
