import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { modalClosed, modalOpened } from './modal-stack';
import './ui.css';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Tab from the last control goes to the first, Shift+Tab from the first (or the dialog itself) to the last. A native
 * listener of the dialog element, not React's `onKeyDown`: the toasts shown above a modal are portaled into it (see
 * modal-stack.ts) but belong to the shell's React tree, so React would never pass their keys to the dialog — and
 * Chromium lets Tab from a modal dialog's last control leave the page (to the browser's own UI).
 */
function wrapFocus(event: KeyboardEvent): void {
  const dialog = event.currentTarget as HTMLDialogElement;
  // A dialog opened over this one, inside it, has already answered.
  if (event.key !== 'Tab' || event.defaultPrevented) return;
  const controls = [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (control) => control.closest('dialog') === dialog && control.tabIndex >= 0 && (typeof control.checkVisibility !== 'function' || control.checkVisibility()),
  );
  const first = controls[0];
  const last = controls[controls.length - 1];
  if (!first || !last) {
    event.preventDefault();
    return;
  }
  const active = document.activeElement;
  if (event.shiftKey && (active === first || active === dialog)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || !dialog.contains(active))) {
    event.preventDefault();
    first.focus();
  }
}

interface ModalProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Show the close icon (spec §2: optional). */
  closeIcon?: boolean;
  /**
   * An urgent question (an incoming call): an `alertdialog` whose focus goes to the dialog itself, not to a button,
   * so a keystroke meant for the page cannot answer it; a click outside does not close it (Escape does).
   */
  alert?: boolean;
  /** A click outside closes it (default). Off where closing by accident loses something (credentials shown once). */
  closeOnOutsideClick?: boolean;
  /** The id of the text that says what the dialog is about (`aria-describedby`). */
  describedBy?: string;
  /** Extra classes of the panel and of its title. */
  className?: string;
  titleClassName?: string;
}

/**
 * The one modal dialog of the product (spec §2), a native `<dialog>` opened with `showModal()`: the browser keeps
 * focus inside it and makes everything else inert (no click, no Tab, no screen-reader cursor reaches the page
 * behind), and it sits above everything whatever the page's stacking. It closes on a click outside it (not an
 * alert), on Escape, or on its optional close icon; focus moves into it when it opens and back where it was when
 * it closes. The caller unmounts it to close, which also resets the form inside.
 */
export function Modal({
  title,
  onClose,
  children,
  closeIcon = true,
  alert = false,
  closeOnOutsideClick = !alert,
  describedBy,
  className,
  titleClassName,
}: ModalProps) {
  const { t } = useTranslation('common');
  const titleId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  // The latest onClose, so a parent's re-render (a new inline callback) does not re-run the effect below — that
  // moved focus back to the first button, and away from wherever the person was, on every render.
  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  }, [onClose]);
  // Asked to close once per opening: Escape may both fire `cancel` and (when the browser does not let it be
  // cancelled) close the dialog; an incoming call must not be declined twice.
  const asked = useRef(false);
  const close = () => {
    if (asked.current) return;
    asked.current = true;
    closeRef.current();
  };

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const previous = document.activeElement as HTMLElement | null;
    // jsdom (unit tests) has no showModal: there the dialog is simply open.
    if (typeof element.showModal === 'function') {
      if (!element.open) element.showModal();
    } else element.setAttribute('open', '');
    modalOpened(element);
    element.addEventListener('keydown', wrapFocus);
    const first = alert ? null : element.querySelector<HTMLElement>('input, select, textarea, button:not([data-close])');
    (first ?? element).focus();
    return () => {
      element.removeEventListener('keydown', wrapFocus);
      modalClosed(element);
      if (element.open && typeof element.close === 'function') element.close();
      if (previous?.isConnected) previous.focus();
    };
  }, [alert]);

  return (
    // The dialog itself takes Escape, Tab and a press outside its panel, as a modal dialog does.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <dialog
      ref={dialog}
      className="ui-modal-layer"
      role={alert ? 'alertdialog' : undefined}
      aria-labelledby={titleId}
      aria-describedby={describedBy}
      tabIndex={-1}
      aria-modal="true"
      onKeyDown={(event) => {
        // Escape is handled here as well as by the browser's modal dialog, so it behaves the same everywhere (and a
        // dialog opened over another one answers alone). Tab: wrapFocus, above.
        if (event.key === 'Escape') {
          event.preventDefault();
          event.stopPropagation();
          close();
        }
      }}
      onCancel={(event) => {
        // React passes these on to an enclosing modal's handlers too: only this dialog's own count here.
        if (event.target !== event.currentTarget) return;
        event.preventDefault();
        close();
      }}
      // The browser closed it itself (an Escape it would not let be cancelled): the caller unmounts it too. The
      // event comes a task later, so one from our own close() (React's development double effect closes and opens
      // the dialog again at once) finds it open again and is ignored.
      onClose={(event) => {
        if (event.target === event.currentTarget && !event.currentTarget.open) close();
      }}
      onMouseDown={(event) => {
        // The layer around the panel is the dialog element itself: a press there is outside the panel.
        if (closeOnOutsideClick && event.target === event.currentTarget) close();
      }}
    >
      <div className={className ? `ui-modal ${className}` : 'ui-modal'}>
        <header className="ui-modal-header">
          <h2 id={titleId} className={titleClassName}>
            {title}
          </h2>
          {closeIcon && (
            <button type="button" data-close className="ui-icon-button" aria-label={t('actions.close')} onClick={() => close()}>
              ×
            </button>
          )}
        </header>
        {children}
      </div>
    </dialog>
  );
}
