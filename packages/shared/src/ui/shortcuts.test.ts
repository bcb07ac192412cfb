import { Shortcuts, isTextEntry, matchesShortcut, modalOpen, shortcutKeys } from './shortcuts';

const press = (key: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey', boolean>> = {}) => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...mods,
});

test('a shortcut matches its key with exactly its modifiers; Ctrl and ⌘ both count as the mod key', () => {
  expect(matchesShortcut(press('k', { ctrlKey: true }), Shortcuts.search)).toBe(true);
  expect(matchesShortcut(press('K', { metaKey: true }), Shortcuts.search)).toBe(true);
  expect(matchesShortcut(press('k'), Shortcuts.search)).toBe(false);
  expect(matchesShortcut(press('k', { ctrlKey: true, altKey: true }), Shortcuts.search)).toBe(false);
  expect(matchesShortcut(press('ArrowDown', { altKey: true }), Shortcuts.nextChat)).toBe(true);
  expect(matchesShortcut(press('ArrowDown', { altKey: true, ctrlKey: true }), Shortcuts.nextChat)).toBe(false);
  expect(matchesShortcut(press('?', { shiftKey: true }), Shortcuts.helpKey)).toBe(true);
  expect(matchesShortcut(press('?'), Shortcuts.helpKey)).toBe(true);
});

test('text fields take bare keys; buttons and the page do not', () => {
  const textarea = document.createElement('textarea');
  const search = Object.assign(document.createElement('input'), { type: 'search' });
  const checkbox = Object.assign(document.createElement('input'), { type: 'checkbox' });
  expect(isTextEntry(textarea)).toBe(true);
  expect(isTextEntry(search)).toBe(true);
  expect(isTextEntry(checkbox)).toBe(false);
  expect(isTextEntry(document.createElement('button'))).toBe(false);
  expect(isTextEntry(document.body)).toBe(false);
});

test('a shortcut is shown with the keys a person presses', () => {
  expect(shortcutKeys(Shortcuts.search, 'Ctrl')).toEqual(['Ctrl', 'K']);
  expect(shortcutKeys(Shortcuts.search, '⌘')).toEqual(['⌘', 'K']);
  expect(shortcutKeys(Shortcuts.nextChat, 'Ctrl')).toEqual(['Alt', '↓']);
  expect(shortcutKeys(Shortcuts.newLine, 'Ctrl')).toEqual(['Shift', 'Enter']);
  expect(shortcutKeys(Shortcuts.close, 'Ctrl')).toEqual(['Esc']);
  expect(shortcutKeys(Shortcuts.helpKey, 'Ctrl')).toEqual(['?']);
});

test('a modal dialog is open while an element says aria-modal, not for a dialog that is not modal', () => {
  expect(modalOpen()).toBe(false);
  const panel = document.createElement('div');
  panel.setAttribute('role', 'dialog');
  document.body.append(panel);
  expect(modalOpen()).toBe(false);
  panel.setAttribute('aria-modal', 'true');
  expect(modalOpen()).toBe(true);
  panel.remove();
  expect(modalOpen()).toBe(false);
});
