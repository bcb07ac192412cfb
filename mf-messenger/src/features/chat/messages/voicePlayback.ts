import { create } from 'zustand';

/**
 * The one sound of the chat view: a voice message (or an attached audio file) being played or paused part-way.
 * The audio element lives here, outside the message list, because the list is virtualized: a row scrolled out of
 * the rendered range unmounts, and a player inside it stopped mid-sentence. One sound at a time, as in the
 * messengers people know: playing another message stops this one. The chat view stops it when it closes
 * (`stopVoicePlayback`), so nothing plays with no control on screen.
 */
export interface VoicePlaybackState {
  /** The message whose sound is loaded (playing, or paused at `positionMs`); null when none. */
  current: number | null;
  playing: boolean;
  positionMs: number;
  /**
   * The current sound's length as the browser knows it, for a file that came without one (an attached file):
   * Chrome's WebM says Infinity until played through, then its real length.
   */
  durationMs: number | null;
  /** Plays or pauses that message's sound (from where it was, or from the start if it is another one). */
  toggle(messageId: number, url: string): void;
  /** Moves that message's sound to a position (loading it paused there if it is not the current one). */
  seek(messageId: number, url: string, ms: number): void;
  stop(): void;
}

let element: HTMLAudioElement | null = null;

/** The page's one audio element, made when first played (never in the document: it has nothing to show). */
function audio(): HTMLAudioElement {
  if (element) return element;
  const made = new Audio();
  made.preload = 'auto';
  made.addEventListener('timeupdate', () => useVoicePlayback.setState({ positionMs: made.currentTime * 1000 }));
  made.addEventListener('play', () => useVoicePlayback.setState({ playing: true }));
  made.addEventListener('pause', () => useVoicePlayback.setState({ playing: false }));
  made.addEventListener('ended', () => useVoicePlayback.setState({ playing: false, positionMs: 0 }));
  made.addEventListener('durationchange', () =>
    useVoicePlayback.setState({ durationMs: Number.isFinite(made.duration) ? made.duration * 1000 : null }),
  );
  element = made;
  return made;
}

/** Loads another message's sound in place of the current one, at its start. */
function load(messageId: number, url: string): HTMLAudioElement {
  const player = audio();
  player.pause();
  player.src = url;
  useVoicePlayback.setState({ current: messageId, playing: false, positionMs: 0, durationMs: null });
  return player;
}

export const useVoicePlayback = create<VoicePlaybackState>((set, get) => {
  /** The element with that message's sound: as it is if it is the current one, else loaded at its start. */
  const playerFor = (messageId: number, url: string) => (get().current === messageId ? audio() : load(messageId, url));
  return {
    current: null,
    playing: false,
    positionMs: 0,
    durationMs: null,
    toggle: (messageId, url) => {
      const player = playerFor(messageId, url);
      if (player.paused) void player.play().catch((error: unknown) => console.info('playback refused', error));
      else player.pause();
    },
    seek: (messageId, url, ms) => {
      playerFor(messageId, url).currentTime = ms / 1000;
      set({ positionMs: ms });
    },
    stop: () => {
      if (!element) return;
      element.pause();
      element.removeAttribute('src');
      element.load();
      set({ current: null, playing: false, positionMs: 0, durationMs: null });
    },
  };
});

export const stopVoicePlayback = (): void => useVoicePlayback.getState().stop();
