import { useEffect, type RefObject } from 'react';

/** CSS variable (on the root element) holding how much of the window's bottom a bar occupies, e.g. the composer. */
export const BOTTOM_INSET_VARIABLE = '--app-bottom-inset';

/**
 * Keeps BOTTOM_INSET_VARIABLE equal to the space from the top of `ref`'s element to the bottom of the window while
 * it is shown, so what floats at the bottom (notifications, toasts) sits above it instead of over its buttons.
 */
export function useBottomInset(ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const root = document.documentElement;
    const update = () => {
      const inset = Math.max(0, Math.round(window.innerHeight - element.getBoundingClientRect().top));
      root.style.setProperty(BOTTOM_INSET_VARIABLE, `${inset}px`);
    };
    update();
    const resize = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(update);
    resize?.observe(element);
    window.addEventListener('resize', update);
    return () => {
      resize?.disconnect();
      window.removeEventListener('resize', update);
      root.style.removeProperty(BOTTOM_INSET_VARIABLE);
    };
  }, [ref]);
}
