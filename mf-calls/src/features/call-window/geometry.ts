import { config } from '@messenger/shared';

/** Where the call window is and how big, in CSS pixels of the viewport. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Viewport {
  width: number;
  height: number;
}

/** The three resize handles of spec §2. */
export type Edge = 'right' | 'bottom' | 'corner';

/** Minimum and default size, both ways (spec §9). */
export const MIN_SIZE = config.callWindowMinPx;
/** How far one Shift+arrow press resizes. */
export const KEY_STEP = 20;

export function viewportSize(): Viewport {
  return { width: window.innerWidth, height: window.innerHeight };
}

/** The default window: minimum size, centred. */
export function centredRect(viewport: Viewport): Rect {
  return {
    x: Math.max(0, Math.round((viewport.width - MIN_SIZE) / 2)),
    y: Math.max(0, Math.round((viewport.height - MIN_SIZE) / 2)),
    width: MIN_SIZE,
    height: MIN_SIZE,
  };
}

/**
 * Keeps the window inside the viewport: shrinks it to the viewport (never below the minimum) and moves it back
 * in. A viewport smaller than the minimum keeps the window at the top left corner.
 */
export function clampRect(rect: Rect, viewport: Viewport): Rect {
  const width = Math.max(MIN_SIZE, Math.min(rect.width, viewport.width));
  const height = Math.max(MIN_SIZE, Math.min(rect.height, viewport.height));
  return {
    x: Math.max(0, Math.min(rect.x, viewport.width - width)),
    y: Math.max(0, Math.min(rect.y, viewport.height - height)),
    width,
    height,
  };
}

/** The window moved by (dx, dy) from `rect`, kept inside the viewport. */
export function moveRect(rect: Rect, dx: number, dy: number, viewport: Viewport): Rect {
  return clampRect({ ...rect, x: rect.x + dx, y: rect.y + dy }, viewport);
}

/**
 * The window resized from one handle by (dx, dy) from `rect`: the right edge changes only the width, the bottom
 * edge only the height, the corner both. Never below the minimum, never past the viewport's right or bottom.
 */
export function resizeRect(rect: Rect, edge: Edge, dx: number, dy: number, viewport: Viewport): Rect {
  const width = edge === 'bottom' ? rect.width : Math.max(MIN_SIZE, Math.min(rect.width + dx, viewport.width - rect.x));
  const height = edge === 'right' ? rect.height : Math.max(MIN_SIZE, Math.min(rect.height + dy, viewport.height - rect.y));
  return clampRect({ ...rect, width, height }, viewport);
}

/** The resize a Shift+arrow key asks of a handle, or null when that key does nothing there. */
export function keyResize(edge: Edge, key: string): { dx: number; dy: number } | null {
  const horizontal = edge !== 'bottom';
  const vertical = edge !== 'right';
  switch (key) {
    case 'ArrowRight':
      return horizontal ? { dx: KEY_STEP, dy: 0 } : null;
    case 'ArrowLeft':
      return horizontal ? { dx: -KEY_STEP, dy: 0 } : null;
    case 'ArrowDown':
      return vertical ? { dx: 0, dy: KEY_STEP } : null;
    case 'ArrowUp':
      return vertical ? { dx: 0, dy: -KEY_STEP } : null;
    default:
      return null;
  }
}
