import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { VOICE_BITS_PER_SECOND, VOICE_MIME, acquireMicrophone, errorText, releaseStream, useNotificationsStore } from '@messenger/shared';
import { useUploadsStore } from './uploadsStore';

function clock(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/**
 * Records a voice message (WebM/Opus, 64 kbps) while showing how long it is; Cancel throws it away, Send
 * uploads it and sends it as an audio message with its length.
 */
export function VoiceRecorder({ chatId, onDone }: { chatId: number; onDone: () => void }) {
  const { t } = useTranslation('messenger');
  const startUpload = useUploadsStore((state) => state.start);
  const recorder = useRef<MediaRecorder | null>(null);
  const stream = useRef<MediaStream | null>(null);
  const chunks = useRef<Blob[]>([]);
  const startedAt = useRef(0);
  const [elapsed, setElapsed] = useState(0);
  const [ready, setReady] = useState(false);
  // The recording must not restart when the parent re-renders with a new callback.
  const done = useRef(onDone);
  useEffect(() => {
    done.current = onDone;
  }, [onDone]);

  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setInterval> | undefined;
    acquireMicrophone()
      .then((media) => {
        if (cancelled) {
          releaseStream(media);
          return;
        }
        stream.current = media;
        const mimeType = MediaRecorder.isTypeSupported(VOICE_MIME) ? VOICE_MIME : undefined;
        const next = new MediaRecorder(media, { ...(mimeType ? { mimeType } : {}), audioBitsPerSecond: VOICE_BITS_PER_SECOND });
        next.ondataavailable = (event) => {
          if (event.data.size > 0) chunks.current.push(event.data);
        };
        next.start();
        recorder.current = next;
        startedAt.current = performance.now();
        setReady(true);
        timer = setInterval(() => setElapsed(performance.now() - startedAt.current), 200);
      })
      .catch((error: unknown) => {
        // In the person's language: the microphone was refused, missing, busy, or cannot be used on this page.
        useNotificationsStore.getState().push({ kind: 'error', text: errorText(error, 'common:media.failed') });
        done.current();
      });
    return () => {
      cancelled = true;
      clearInterval(timer);
      if (recorder.current && recorder.current.state !== 'inactive') recorder.current.stop();
      releaseStream(stream.current);
    };
  }, []);

  const send = () => {
    const active = recorder.current;
    if (!active) return;
    const duration = Math.round(performance.now() - startedAt.current);
    active.onstop = () => {
      const type = active.mimeType || 'audio/webm';
      const blob = new Blob(chunks.current, { type });
      const file = new File([blob], `voice-${new Date().toISOString().replace(/[:.]/g, '-')}.webm`, { type: type.split(';')[0] });
      void startUpload(chatId, file, { type: 'audio', meta: { duration_ms: duration } });
      done.current();
    };
    active.stop();
  };

  return (
    <div className="msg-recorder" role="group" aria-label={t('chat.recording')}>
      <span className="msg-recording-dot" aria-hidden="true" />
      <span role="timer" aria-label={t('chat.recordingFor', { time: clock(elapsed) })}>
        {clock(elapsed)}
      </span>
      <button type="button" className="ui-button" onClick={() => done.current()}>
        {t('chat.cancelRecording')}
      </button>
      <button type="button" className="ui-button ui-button-primary" onClick={send} disabled={!ready}>
        {t('chat.sendVoice')}
      </button>
    </div>
  );
}
