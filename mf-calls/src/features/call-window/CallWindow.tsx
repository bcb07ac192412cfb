import { useEffect, useId, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Avatar, formatCallDuration } from '@messenger/shared';
import { useRinging } from '../sounds/ringing';
import { centredRect, clampRect, keyResize, moveRect, resizeRect, viewportSize, type Edge, type Rect } from './geometry';
import { CallIcon } from './icons';
import { RemoteTile, SelfView } from './Tiles';
import type { CallActions, CallViewState } from './types';

export interface CallWindowProps {
  state: CallViewState;
  actions: CallActions;
  /** Start filling the viewport (e.g. on a small screen). */
  initiallyMaximized?: boolean;
}

const EDGES: readonly Edge[] = ['right', 'bottom', 'corner'];
const EDGE_LABEL_KEYS: Record<Edge, string> = { right: 'window.resizeRight', bottom: 'window.resizeBottom', corner: 'window.resizeCorner' };
const EDGE_SHORTCUTS: Record<Edge, string> = {
  right: 'Shift+ArrowLeft Shift+ArrowRight',
  bottom: 'Shift+ArrowUp Shift+ArrowDown',
  corner: 'Shift+ArrowLeft Shift+ArrowRight Shift+ArrowUp Shift+ArrowDown',
};

/**
 * The call window (spec §2): a floating, non-modal dialog over the app while a call is open. Drag it by its
 * header, resize it from the right edge, the bottom edge or the corner (or with Shift+arrow keys on a focused
 * handle), or let it fill the viewport. It never gets smaller than 400×400 and never leaves the viewport. While
 * it is open, leaving the page asks for confirmation, and the outgoing ring-back plays until someone answers.
 */
export function CallWindow({ state, actions, initiallyMaximized = false }: CallWindowProps) {
  const { t } = useTranslation('calls');
  const titleId = useId();
  const hintId = useId();
  const dialog = useRef<HTMLDivElement>(null);
  const [rect, setRect] = useState<Rect>(() => centredRect(viewportSize()));
  const [maximized, setMaximized] = useState(initiallyMaximized);
  // What a keyboard resize announces (the new size), for screen reader users who cannot see it.
  const [announcement, setAnnouncement] = useState('');
  // Ends the pointer gesture under way (drag or resize), if any.
  const endGesture = useRef<(() => void) | null>(null);

  useRinging('outgoing', state.phase === 'ringing');

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    dialog.current?.focus();
    return () => {
      endGesture.current?.();
      if (previous?.isConnected) previous.focus();
    };
  }, []);

  // The leave-page warning of spec §2.
  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, []);

  // A smaller viewport pulls the window back inside.
  useEffect(() => {
    const onResize = () => setRect((current) => clampRect(current, viewportSize()));
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);

  /** Follows the pointer from this press until it is released, reporting how far it has moved. */
  const follow = (event: ReactPointerEvent, apply: (dx: number, dy: number) => void) => {
    if (event.button !== 0) return;
    event.preventDefault();
    endGesture.current?.();
    const startX = event.clientX;
    const startY = event.clientY;
    const move = (next: PointerEvent) => apply(next.clientX - startX, next.clientY - startY);
    const end = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', end);
      window.removeEventListener('pointercancel', end);
      endGesture.current = null;
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', end);
    window.addEventListener('pointercancel', end);
    endGesture.current = end;
  };

  const startDrag = (event: ReactPointerEvent<HTMLElement>) => {
    if (maximized || (event.target instanceof Element && event.target.closest('button'))) return;
    const start = rect;
    follow(event, (dx, dy) => setRect(moveRect(start, dx, dy, viewportSize())));
  };

  const startResize = (edge: Edge) => (event: ReactPointerEvent<HTMLElement>) => {
    const start = rect;
    follow(event, (dx, dy) => setRect(resizeRect(start, edge, dx, dy, viewportSize())));
  };

  const keyboardResize = (edge: Edge) => (event: ReactKeyboardEvent<HTMLElement>) => {
    if (!event.shiftKey) return;
    const step = keyResize(edge, event.key);
    if (!step) return;
    event.preventDefault();
    const next = resizeRect(rect, edge, step.dx, step.dy, viewportSize());
    setRect(next);
    setAnnouncement(t('window.size', { width: next.width, height: next.height }));
  };

  const style = maximized ? undefined : { left: rect.x, top: rect.y, width: rect.width, height: rect.height };

  return (
    <div
      ref={dialog}
      className={maximized ? 'calls-window calls-window-large' : 'calls-window'}
      style={style}
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleId}
      tabIndex={-1}
    >
      <header className={maximized ? 'calls-window-header' : 'calls-window-header calls-draggable'} onPointerDown={startDrag}>
        <div className="calls-window-heading">
          <h2 id={titleId} className="calls-window-title">
            {state.title}
          </h2>
          <p className="calls-window-status">
            <span>{t('window.participants', { count: state.participantCount })}</span>
            <CallClock connectedAt={state.connectedAt} phase={state.phase} />
            {/* A live region from the start, so that "Recording" is announced when the server's word comes. */}
            <span className="calls-recorded" role="status">
              {state.recorded && (
                <>
                  <span className="calls-recorded-dot" aria-hidden="true" />
                  {t('window.recorded')}
                </>
              )}
            </span>
          </p>
        </div>
        <button
          type="button"
          className="ui-icon-button calls-window-size"
          aria-label={t('window.maximize')}
          title={t('window.maximize')}
          aria-pressed={maximized}
          onClick={() => setMaximized((value) => !value)}
        >
          <CallIcon name={maximized ? 'restore' : 'maximize'} size={20} />
        </button>
      </header>

      <div className="calls-window-body">
        {state.remotes.length > 0 ? (
          <ul className="calls-grid" aria-label={t('window.participantsList')}>
            {state.remotes.map((remote) => (
              <RemoteTile key={remote.userId} remote={remote} />
            ))}
            {/* With two others or more, my preview is a tile of the grid: floating, it covered someone's tile. */}
            {state.remotes.length > 1 && (
              <li className="calls-tile">
                <SelfView stream={state.localStream} cameraOn={state.cameraOn} screenSharing={state.screenSharing} placement="tile" />
              </li>
            )}
          </ul>
        ) : (
          <div className="calls-waiting">
            <Avatar name={state.title} size={96} group={state.chatType === 'group'} />
          </div>
        )}
        {state.remotes.length <= 1 && (
          <SelfView
            stream={state.localStream}
            cameraOn={state.cameraOn}
            screenSharing={state.screenSharing}
            placement={state.remotes.length === 1 ? 'corner' : 'waiting'}
          />
        )}
      </div>

      <footer className="calls-window-footer">
        <MicMeter level={state.localAudioLevel} />
        <div className="calls-controls" role="group" aria-label={t('window.controls')}>
          <ControlButton label={t('window.mute')} pressed={state.muted} onClick={() => actions.toggleMute()} icon={state.muted ? 'micOff' : 'mic'} />
          <ControlButton label={t('window.camera')} pressed={state.cameraOn} onClick={() => actions.toggleCamera()} icon={state.cameraOn ? 'camera' : 'cameraOff'} />
          {state.canShareScreen && (
            <ControlButton
              label={t('window.shareScreen')}
              pressed={state.screenSharing}
              onClick={() => actions.toggleScreenShare()}
              icon={state.screenSharing ? 'screenOff' : 'screen'}
            />
          )}
          <button type="button" className="calls-control calls-hang-up" aria-label={t('window.hangUp')} title={t('window.hangUp')} onClick={() => actions.hangUp()}>
            <CallIcon name="hangUp" />
          </button>
        </div>
      </footer>

      {!maximized &&
        EDGES.map((edge) => (
          <button
            key={edge}
            type="button"
            className={`calls-resize calls-resize-${edge}`}
            aria-label={t(EDGE_LABEL_KEYS[edge])}
            aria-describedby={hintId}
            aria-keyshortcuts={EDGE_SHORTCUTS[edge]}
            onPointerDown={startResize(edge)}
            onKeyDown={keyboardResize(edge)}
          />
        ))}
      <span id={hintId} className="visually-hidden">
        {t('window.resizeHint')}
      </span>
      <span className="visually-hidden" role="status">
        {announcement}
      </span>
    </div>
  );
}

/**
 * The header's timer: mm:ss (hh:mm:ss after an hour) from the moment the first person arrived; before that, what
 * the call is doing. "Reconnecting…" also shows next to a running timer.
 */
function CallClock({ connectedAt, phase }: { connectedAt: number | null; phase: CallViewState['phase'] }) {
  const { t } = useTranslation('calls');
  const phaseText =
    connectedAt === null
      ? t(phase === 'ringing' ? 'window.calling' : phase === 'reconnecting' ? 'window.reconnecting' : 'window.connecting')
      : phase === 'reconnecting'
        ? t('window.reconnecting')
        : '';
  return (
    <>
      {connectedAt !== null && <Elapsed key={connectedAt} since={connectedAt} />}
      <span className="calls-phase" role="status">
        {phaseText}
      </span>
    </>
  );
}

function Elapsed({ since }: { since: number }) {
  const { t } = useTranslation('calls');
  const [elapsed, setElapsed] = useState(() => Date.now() - since);
  useEffect(() => {
    const timer = setInterval(() => setElapsed(Date.now() - since), 500);
    return () => clearInterval(timer);
  }, [since]);
  const time = formatCallDuration(elapsed);
  return (
    <span className="calls-timer" role="timer" aria-label={t('window.duration', { time })}>
      {time}
    </span>
  );
}

/** The microphone's loudness, 0 to 100 (spec §2). */
function MicMeter({ level }: { level: number }) {
  const { t } = useTranslation('calls');
  const value = Math.round(Math.min(100, Math.max(0, Number.isFinite(level) ? level : 0)));
  return (
    <div className="calls-meter" role="meter" aria-label={t('window.micLevel')} aria-valuemin={0} aria-valuemax={100} aria-valuenow={value}>
      <span className="calls-meter-bar" style={{ width: `${value}%` }} />
    </div>
  );
}

interface ControlButtonProps {
  label: string;
  pressed: boolean;
  onClick: () => void;
  icon: Parameters<typeof CallIcon>[0]['name'];
}

/** A toggle of the call: its name stays the same, and aria-pressed tells whether it is on. */
function ControlButton({ label, pressed, onClick, icon }: ControlButtonProps) {
  return (
    <button type="button" className="calls-control" aria-label={label} title={label} aria-pressed={pressed} onClick={onClick}>
      <CallIcon name={icon} />
    </button>
  );
}
