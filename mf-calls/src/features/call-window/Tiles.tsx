import { useCallback, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '@messenger/shared';
import type { RemoteParticipant } from './types';

/** A remote's loudness (0–100) from which the tile shows them speaking. */
const SPEAKING_LEVEL = 12;

/**
 * A ref for an <audio>/<video> element that plays `stream`. The stream is attached only where the element can
 * take one (jsdom's media elements have no `srcObject`), and detached when the element goes or the stream changes.
 */
function useStreamRef(stream: MediaStream | null) {
  return useCallback(
    (element: HTMLMediaElement | null) => {
      if (!element || !('srcObject' in element)) return;
      if (element.srcObject !== stream) element.srcObject = stream;
      return () => {
        element.srcObject = null;
      };
    },
    [stream],
  );
}

function hasVideo(stream: MediaStream | null): boolean {
  return !!stream && typeof stream.getVideoTracks === 'function' && stream.getVideoTracks().length > 0;
}

/**
 * One other person: their video, or their avatar while their camera is off (their browser says so), while it
 * shows 1 frame a second or less, or while they send no video (spec §9). Their sound plays through an <audio> element of its own, so it goes on while the video is hidden.
 */
export function RemoteTile({ remote }: { remote: RemoteParticipant }) {
  const { t } = useTranslation('calls');
  const videoRef = useStreamRef(remote.stream);
  const audioRef = useStreamRef(remote.stream);
  const showVideo = !remote.reconnecting && !remote.videoOff && remote.frameRate > 1 && hasVideo(remote.stream);
  const speaking = remote.audioLevel >= SPEAKING_LEVEL;
  return (
    <li className={speaking ? 'calls-tile calls-speaking' : 'calls-tile'} data-testid={`calls-tile-${remote.userId}`}>
      {/* The sound comes from the <audio> below, so the video stays muted: otherwise it would play twice. */}
      <video ref={videoRef} className="calls-video" autoPlay playsInline muted hidden={!showVideo} />
      {!showVideo && (
        <span className="calls-tile-avatar">
          <Avatar name={remote.name} path={remote.avatar} size={72} />
        </span>
      )}
      <span className="calls-tile-name">
        {remote.name}
        {speaking && <span className="visually-hidden">, {t('window.speaking')}</span>}
      </span>
      {remote.reconnecting && (
        <span className="calls-tile-state" role="status">
          {t('window.reconnecting')}
        </span>
      )}
      {/* A live call has no caption track to offer. */}
      {/* eslint-disable-next-line jsx-a11y/media-has-caption */}
      <audio ref={audioRef} autoPlay />
    </li>
  );
}

/**
 * Where my preview goes: a tile of the grid (two others or more), the top corner over the one other person's tile
 * (clear of their name, at the bottom), or the bottom corner while I wait for someone.
 */
export type SelfPlacement = 'tile' | 'corner' | 'waiting';

/** My own preview: muted (I must not hear myself), mirrored for the camera but not for a shared screen. */
export function SelfView({
  stream,
  cameraOn,
  screenSharing,
  placement = 'waiting',
}: {
  stream: MediaStream | null;
  cameraOn: boolean;
  screenSharing: boolean;
  placement?: SelfPlacement;
}) {
  const { t } = useTranslation('calls');
  const captionId = useId();
  const videoRef = useStreamRef(stream);
  const showVideo = !!stream && (cameraOn || screenSharing);
  return (
    <figure className={`calls-self calls-self-${placement}`} aria-labelledby={captionId}>
      <video
        ref={videoRef}
        className={screenSharing ? 'calls-video' : 'calls-video calls-mirrored'}
        autoPlay
        playsInline
        muted
        hidden={!showVideo}
      />
      {!showVideo && (
        <span className="calls-self-off" aria-hidden="true">
          {t('window.cameraOff')}
        </span>
      )}
      <figcaption id={captionId} className="visually-hidden">{showVideo ? t('window.you') : `${t('window.you')}, ${t('window.cameraOff')}`}</figcaption>
    </figure>
  );
}
