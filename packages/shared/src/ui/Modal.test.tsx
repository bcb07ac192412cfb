import { StrictMode } from 'react';
import { createPortal } from 'react-dom';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { initTestI18n } from '../testing';
import { Modal } from './Modal';
import { useModalStack } from './modal-stack';

// jsdom has no modal dialogs: these stand in for the browser's, including its `close` event coming a task later.
beforeAll(async () => {
  await initTestI18n();
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    if (!this.open) return;
    this.removeAttribute('open');
    setTimeout(() => this.dispatchEvent(new Event('close')), 0);
  };
});

afterEach(() => jest.useRealTimers());

test("stays open under React's development double effect (it closes and opens the dialog again at once)", async () => {
  jest.useFakeTimers();
  const onClose = jest.fn();
  render(
    <StrictMode>
      <Modal title="Rename" onClose={onClose}>
        <input aria-label="Name" />
      </Modal>
    </StrictMode>,
  );
  await act(async () => {
    await jest.runAllTimersAsync();
  });
  expect(onClose).not.toHaveBeenCalled();
  expect(screen.getByRole('dialog', { name: 'Rename' })).toHaveAttribute('open');
  expect(useModalStack.getState().open).toHaveLength(1);
});

test('a dialog inside another: an event of the inner one does not close the outer one; the browser closing it does', async () => {
  jest.useFakeTimers();
  const outer = jest.fn();
  const inner = jest.fn();
  const { unmount } = render(
    <Modal title="Outer" onClose={outer}>
      <Modal title="Inner" onClose={inner}>
        <button type="button">Fine</button>
      </Modal>
    </Modal>,
  );
  expect(useModalStack.getState().open).toHaveLength(2);
  const innerDialog = screen.getByRole('dialog', { name: 'Inner' }) as HTMLDialogElement;
  innerDialog.dispatchEvent(new Event('cancel', { cancelable: true }));
  innerDialog.close();
  await act(async () => {
    await jest.runAllTimersAsync();
  });
  expect(inner).toHaveBeenCalledTimes(1);
  expect(outer).not.toHaveBeenCalled();
  unmount();
  expect(useModalStack.getState().open).toHaveLength(0);
});

test("Tab from a toast portaled into the dialog from outside it in React's tree (the shell's) wraps to the dialog's first control", () => {
  function Toasts() {
    const top = useModalStack((state) => state.open.at(-1));
    return top ? createPortal(<button type="button">Dismiss</button>, top) : null;
  }
  // One React root, as in the app: the shell's toasts beside a remote's dialog, not inside it.
  const { unmount } = render(
    <>
      <Modal title="New contact" onClose={() => undefined}>
        <input aria-label="Name" />
        <button type="button">Cancel</button>
      </Modal>
      <Toasts />
    </>,
  );
  const dismiss = screen.getByRole('button', { name: 'Dismiss' });
  expect(screen.getByRole('dialog', { name: 'New contact' })).toContainElement(dismiss);
  dismiss.focus();
  const tab = fireEvent.keyDown(dismiss, { key: 'Tab' });
  expect(tab).toBe(false); // the browser's own move is cancelled
  expect(screen.getByRole('button', { name: 'Close' })).toHaveFocus();
  fireEvent.keyDown(document.activeElement!, { key: 'Tab', shiftKey: true });
  expect(dismiss).toHaveFocus();
  unmount();
});
