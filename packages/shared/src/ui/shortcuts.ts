/** A keyboard shortcut: the key (`KeyboardEvent.key`, case ignored) and the modifiers it needs, none other. */
export interface Shortcut {
  key: string;
  /** Ctrl, or ⌘ on a Mac. */
  mod?: boolean;
  alt?: boolean;
  shift?: boolean;
}

/** Whether a key press is exactly this shortcut. */
export function matchesShortcut(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>, shortcut: Shortcut): boolean {
  return (
    event.key.toLowerCase() === shortcut.key.toLowerCase() &&
    (event.ctrlKey || event.metaKey) === Boolean(shortcut.mod) &&
    event.altKey === Boolean(shortcut.alt) &&
    (shortcut.shift === undefined || event.shiftKey === shortcut.shift)
  );
}

/** Whether the key press goes into something the person is writing in (where a bare key is text, not a command). */
export function isTextEntry(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !['button', 'checkbox', 'radio', 'submit', 'reset', 'file', 'range', 'color'].includes(target.type);
}

/**
 * Whether a modal dialog is open: the app's shortcuts then wait, as the page behind it does (a chat switched or
 * the search focused under a dialog would change what the dialog is about, out of sight).
 */
export function modalOpen(): boolean {
  return document.querySelector('[aria-modal="true"]') !== null;
}

/** The shortcuts of the app, in one place: the handlers match these and the help dialog shows their keys. */
export const Shortcuts = {
  search: { key: 'k', mod: true },
  previousChat: { key: 'ArrowUp', alt: true },
  nextChat: { key: 'ArrowDown', alt: true },
  /** The composer's (it checks Enter itself, to leave an IME's composition alone). */
  send: { key: 'Enter' },
  newLine: { key: 'Enter', shift: true },
  /** In an empty composer: edit my last message. */
  editLast: { key: 'ArrowUp', shift: false },
  /** Every panel and dialog closes on it. */
  close: { key: 'Escape' },
  help: { key: '/', mod: true },
  /** `?` outside a text field, however the layout makes it (Shift+/ on many: the character is what counts). */
  helpKey: { key: '?' },
} satisfies Record<string, Shortcut>;

const KEY_NAMES: Record<string, string> = { ArrowUp: '↑', ArrowDown: '↓', Escape: 'Esc' };

/** A shortcut's keys as a person presses them, e.g. ['Ctrl', 'K'] (`modName`: 'Ctrl', or '⌘' on a Mac). */
export function shortcutKeys(shortcut: Shortcut, modName: string): string[] {
  const key = KEY_NAMES[shortcut.key] ?? (shortcut.key.length === 1 ? shortcut.key.toUpperCase() : shortcut.key);
  return [...(shortcut.mod ? [modName] : []), ...(shortcut.alt ? ['Alt'] : []), ...(shortcut.shift ? ['Shift'] : []), key];
}
