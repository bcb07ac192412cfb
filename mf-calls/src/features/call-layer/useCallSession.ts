import { useEffect, useRef, useState } from 'react';
import { useAuthStore, useCallStore, type ActiveCall } from '@messenger/shared';
import { CallSession, type SessionSnapshot } from '../../engine/CallSession';
import { callNotice } from '../call-window/CallNotice';

export interface CallControls {
  toggleMute(): void;
  toggleCamera(): void;
  toggleScreenShare(): void;
  hangUp(): void;
}

/**
 * Runs the call this tab is in for as long as the component using it is mounted: the session starts with the
 * active call and is dropped when the store forgets it (a `hang` event, or the window's own hang-up).
 */
export function useCallSession(active: ActiveCall): { snapshot: SessionSnapshot | null; controls: CallControls } {
  const me = useAuthStore((state) => state.user);
  const [snapshot, setSnapshot] = useState<SessionSnapshot | null>(null);
  const session = useRef<CallSession | null>(null);

  useEffect(() => {
    if (!me) return;
    const current = new CallSession({
      chatId: active.chatId,
      myId: me.id,
      myRole: me.role,
      outgoing: active.outgoing,
      onChange: (next) => {
        setSnapshot(next);
        if (next.remotes.length > 0) useCallStore.getState().markAnswered();
      },
      onEnd: (reason) => {
        if (reason === 'full') callNotice('roomFull');
        if (reason === 'failed') callNotice('connectionLost');
        if (useCallStore.getState().active?.callId === active.callId) useCallStore.getState().endActive();
      },
      onMediaError: (kind, error) => callNotice(kind, error),
    });
    session.current = current;
    void current.start();
    return () => {
      // Unmounted because the call ended elsewhere (or this tab signs out): nothing more to tell the server.
      current.dispose();
      session.current = null;
    };
    // One session per call: the ids identify it; `outgoing` only changes inside it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active.callId, active.chatId, me?.id]);

  const controls: CallControls = {
    toggleMute: () => session.current?.toggleMute(),
    toggleCamera: () => void session.current?.toggleCamera(),
    toggleScreenShare: () => void session.current?.toggleScreenShare(),
    hangUp: () => void session.current?.hangUp(),
  };
  return { snapshot, controls };
}
