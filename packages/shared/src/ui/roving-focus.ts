import type { KeyboardEvent } from 'react';

/** Which arrow keys move: left/right (tabs in a row), up/down (a list), or both (a menu with a row of reactions). */
export type ArrowAxis = 'horizontal' | 'vertical' | 'both';

const PREVIOUS: Record<ArrowAxis, string[]> = { horizontal: ['ArrowLeft'], vertical: ['ArrowUp'], both: ['ArrowLeft', 'ArrowUp'] };
const NEXT: Record<ArrowAxis, string[]> = { horizontal: ['ArrowRight'], vertical: ['ArrowDown'], both: ['ArrowRight', 'ArrowDown'] };

/**
 * Roving focus (WAI-ARIA's composite widgets, as Element Web's menus and tabs): within the container, the arrow
 * keys move focus to the previous or next item (wrapping around), Home and End to the first and last. Only one
 * item of such a widget is in the Tab order; the caller gives the others `tabIndex={-1}`. Returns whether the key
 * was one of these (it is then consumed).
 */
export function moveFocusByArrows(event: KeyboardEvent<HTMLElement>, itemSelector: string, axis: ArrowAxis): boolean {
  // Alt+arrows (the browser's Back, our chat switching) and other chords are not ours.
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return false;
  const items = [...event.currentTarget.querySelectorAll<HTMLElement>(itemSelector)].filter((item) => !item.hasAttribute('disabled'));
  if (items.length === 0) return false;
  const current = items.findIndex((item) => item === document.activeElement);
  let next: number;
  if (PREVIOUS[axis].includes(event.key)) next = current <= 0 ? items.length - 1 : current - 1;
  else if (NEXT[axis].includes(event.key)) next = current < 0 || current === items.length - 1 ? 0 : current + 1;
  else if (event.key === 'Home') next = 0;
  else if (event.key === 'End') next = items.length - 1;
  else return false;
  event.preventDefault();
  items[next]!.focus();
  return true;
}
