import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '@messenger/shared';

function clock(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/**
 * A voice message: play/pause and a progress bar that can be dragged. The recorded length comes with the
 * message, because Chrome's WebM recordings carry no duration of their own.
 */
export function VoicePlayer({ url, durationMs, label }: { url: string | null; durationMs?: number | undefined; label: string }) {
  const { t } = useTranslation('messenger');
  const audio = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState(false);
  const [position, setPosition] = useState(0);
  /** The file's own length, for audio that came without one (an attached file, not a recording). */
  const [fileDuration, setFileDuration] = useState<number | null>(null);
  const duration = durationMs ?? fileDuration ?? 0;

  useEffect(() => {
    const element = audio.current;
    if (!element) return;
    const onTime = () => setPosition(element.currentTime * 1000);
    const onEnd = () => {
      setPlaying(false);
      setPosition(0);
    };
    const onPause = () => setPlaying(false);
    const onPlay = () => setPlaying(true);
    // Chrome's WebM recordings say Infinity until played through; a real file says its length up front.
    const onDuration = () => setFileDuration(Number.isFinite(element.duration) ? element.duration * 1000 : null);
    element.addEventListener('timeupdate', onTime);
    element.addEventListener('ended', onEnd);
    element.addEventListener('pause', onPause);
    element.addEventListener('play', onPlay);
    element.addEventListener('loadedmetadata', onDuration);
    element.addEventListener('durationchange', onDuration);
    return () => {
      element.removeEventListener('timeupdate', onTime);
      element.removeEventListener('ended', onEnd);
      element.removeEventListener('pause', onPause);
      element.removeEventListener('play', onPlay);
      element.removeEventListener('loadedmetadata', onDuration);
      element.removeEventListener('durationchange', onDuration);
    };
  }, [url]);

  const toggle = () => {
    const element = audio.current;
    if (!element) return;
    if (element.paused) void element.play().catch((error: unknown) => console.info('playback refused', error));
    else element.pause();
  };

  return (
    <div className="msg-voice" role="group" aria-label={label}>
      {/* A voice message has no captions to offer; the controls beside it are labelled. */}
      {/* eslint-disable-next-line jsx-a11y/media-has-caption */}
      {url && <audio ref={audio} src={url} preload="metadata" />}
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
          const ms = Number(event.target.value);
          setPosition(ms);
          if (audio.current) audio.current.currentTime = ms / 1000;
        }}
      />
      <span className="msg-voice-time">{clock(playing || position > 0 ? position : duration)}</span>
    </div>
  );
}
