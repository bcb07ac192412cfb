import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import './ui.css';

interface ModalProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** Show the close icon (spec §2: optional). */
  closeIcon?: boolean;
}

/**
 * A modal dialog (spec §2): closes on a click outside it, on Escape, or on its optional close icon. Focus moves
 * into it when it opens and back where it was when it closes. The caller unmounts it to close, which also resets
 * the form inside.
 */
export function Modal({ title, onClose, children, closeIcon = true }: ModalProps) {
  const { t } = useTranslation('common');
  const titleId = useId();
  const dialog = useRef<HTMLDivElement>(null);
  // The latest onClose, so a parent's re-render (a new inline callback) does not re-run the effect below — that
  // moved focus back to the first button, and away from wherever the person was, on every render.
  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  }, [onClose]);

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const first = dialog.current?.querySelector<HTMLElement>('input, select, textarea, button:not([data-close])');
    (first ?? dialog.current)?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') closeRef.current();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      previous?.focus?.();
    };
  }, []);

  return (
    <div
      className="ui-modal-backdrop"
      role="presentation"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div className="ui-modal" role="dialog" aria-modal="true" aria-labelledby={titleId} ref={dialog} tabIndex={-1}>
        <header className="ui-modal-header">
          <h2 id={titleId}>{title}</h2>
          {closeIcon && (
            <button type="button" data-close className="ui-icon-button" aria-label={t('actions.close')} onClick={onClose}>
              ×
            </button>
          )}
        </header>
        {children}
      </div>
    </div>
  );
}
