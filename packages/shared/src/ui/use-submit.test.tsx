import { StrictMode } from 'react';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useNotificationsStore } from '../stores/notifications';
import { FormError, useSubmit } from './use-submit';

function deferred() {
  let resolve!: () => void;
  let reject!: (failure: unknown) => void;
  const promise = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

function SaveForm({ action, report }: { action: () => Promise<void>; report?: 'inline' | 'toast' }) {
  const form = useSubmit((failure) => `failed: ${(failure as Error).message}`, report);
  return (
    <form onSubmit={form.handler(action)}>
      <FormError error={form.error} />
      <button type="submit" disabled={form.busy}>
        Save
      </button>
    </form>
  );
}

beforeEach(() => useNotificationsStore.setState({ items: [] }));

test('runs one action at a time: a double click sends once, and the button is busy until it settles', async () => {
  const pending = deferred();
  const action = jest.fn(() => pending.promise);
  render(<SaveForm action={action} />, { wrapper: StrictMode });
  const save = screen.getByRole('button', { name: 'Save' });
  await act(async () => {
    save.click();
    save.click();
  });
  expect(action).toHaveBeenCalledTimes(1);
  expect(save).toBeDisabled();
  await act(async () => pending.resolve());
  expect(save).toBeEnabled();
  expect(screen.queryByRole('alert')).toBeNull();
});

test('a failure is shown inline in words, and cleared when the next attempt starts', async () => {
  const attempts = [deferred(), deferred()] as const;
  let call = 0;
  render(<SaveForm action={() => attempts[call++]!.promise} />);
  const save = screen.getByRole('button', { name: 'Save' });
  await userEvent.click(save);
  await act(async () => attempts[0].reject(new Error('offline')));
  expect(screen.getByRole('alert')).toHaveTextContent('failed: offline');
  expect(save).toBeEnabled();
  await userEvent.click(save);
  expect(screen.queryByRole('alert')).toBeNull();
  await act(async () => attempts[1].resolve());
  expect(screen.queryByRole('alert')).toBeNull();
});

test('a dialog without room for it reports the failure as a toast', async () => {
  render(<SaveForm action={() => Promise.reject(new Error('gone'))} report="toast" />);
  await userEvent.click(screen.getByRole('button', { name: 'Save' }));
  expect(useNotificationsStore.getState().items.map((item) => [item.kind, item.text])).toEqual([['error', 'failed: gone']]);
  expect(screen.queryByRole('alert')).toBeNull();
});

test('run tells the caller whether the action went through, and refuses a second one while the first runs', async () => {
  const pending = deferred();
  const results: boolean[] = [];
  function Confirm() {
    const form = useSubmit(() => 'failed');
    return (
      <button type="button" onClick={() => void Promise.all([form.run(() => pending.promise), form.run(() => Promise.resolve())]).then((got) => results.push(...got))}>
        Delete
      </button>
    );
  }
  render(<Confirm />);
  await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
  await act(async () => pending.resolve());
  expect(results).toEqual([true, false]);
});
