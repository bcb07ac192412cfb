/** The little of a window client this needs (ServiceWorker `WindowClient`). */
export interface AppWindow {
  url: string;
  focused: boolean;
  visibilityState: DocumentVisibilityState;
}

/** Where a chat opens: the app's chat route. */
export function chatPath(chatId: number | undefined): string {
  return chatId === undefined ? '/' : `/${chatId}`;
}

/**
 * The app window a notification click should bring up: one of this origin that is not a call's own tab (a call
 * keeps its window), the focused or visible one first. None: the worker opens a new window.
 */
export function pickWindow<T extends AppWindow>(windows: readonly T[], origin: string): T | undefined {
  const candidates = windows.filter((window) => {
    const url = new URL(window.url);
    return url.origin === origin && !url.pathname.startsWith('/meet/');
  });
  return candidates.find((window) => window.focused) ?? candidates.find((window) => window.visibilityState === 'visible') ?? candidates[0];
}
