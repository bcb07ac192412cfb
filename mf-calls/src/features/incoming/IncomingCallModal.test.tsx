import type React from 'react';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { initTestI18n } from '@messenger/shared/testing';
import { config } from '@messenger/shared';
import '../../i18n';
import { IncomingCallModal } from './IncomingCallModal';
import type { IncomingCallView } from '../call-window/types';

// The ringtone itself is tested in sounds/; here only when it starts and stops.
const mockStopRing = jest.fn();
const mockStartRing = jest.fn((_kind: string) => mockStopRing);
jest.mock('../sounds/ringing', () => {
  const { useEffect } = jest.requireActual<typeof React>('react');
  return {
    useRinging: (kind: string, active: boolean) => {
      useEffect(() => (active ? mockStartRing(kind) : undefined), [kind, active]);
    },
  };
});

beforeAll(async () => {
  await initTestI18n();
});

afterEach(() => {
  jest.useRealTimers();
});

const privateCall: IncomingCallView = { chatId: 5, title: 'Anna', avatar: null, chatType: 'private', callerName: 'Anna' };
const groupCall: IncomingCallView = { chatId: 9, title: 'Design team', avatar: null, chatType: 'group', callerName: 'Anna' };

const handlers = () => ({ onAccept: jest.fn(), onReject: jest.fn(), onTimeout: jest.fn() });

test('says who is calling, in a private chat and in a group', () => {
  const { rerender } = render(<IncomingCallModal call={privateCall} soundEnabled={false} {...handlers()} />);
  const dialog = screen.getByRole('alertdialog', { name: 'Incoming call' });
  expect(dialog).toHaveAttribute('aria-modal', 'true');
  expect(dialog).toHaveAccessibleDescription('Anna is calling');
  rerender(<IncomingCallModal call={groupCall} soundEnabled={false} {...handlers()} />);
  expect(screen.getByRole('alertdialog')).toHaveAccessibleDescription('Anna is calling Design team');
});

test('takes focus itself (not a button), and gives it back when closed', () => {
  const before = document.createElement('button');
  document.body.append(before);
  before.focus();
  const { unmount } = render(<IncomingCallModal call={privateCall} soundEnabled={false} {...handlers()} />);
  expect(screen.getByRole('alertdialog')).toHaveFocus();
  unmount();
  expect(before).toHaveFocus();
  before.remove();
});

test('accepts and declines', async () => {
  const user = userEvent.setup();
  const on = handlers();
  render(<IncomingCallModal call={privateCall} soundEnabled={false} {...on} />);
  await user.click(screen.getByRole('button', { name: 'Accept' }));
  expect(on.onAccept).toHaveBeenCalledTimes(1);
  await user.click(screen.getByRole('button', { name: 'Decline' }));
  expect(on.onReject).toHaveBeenCalledTimes(1);
  await user.keyboard('{Escape}');
  expect(on.onReject).toHaveBeenCalledTimes(2);
  expect(on.onTimeout).not.toHaveBeenCalled();
});

test('keeps Tab inside the dialog', async () => {
  const user = userEvent.setup();
  render(<IncomingCallModal call={privateCall} soundEnabled={false} {...handlers()} />);
  await user.tab();
  expect(screen.getByRole('button', { name: 'Decline' })).toHaveFocus();
  await user.tab();
  expect(screen.getByRole('button', { name: 'Accept' })).toHaveFocus();
  await user.tab();
  expect(screen.getByRole('button', { name: 'Decline' })).toHaveFocus();
  await user.tab({ shift: true });
  expect(screen.getByRole('button', { name: 'Accept' })).toHaveFocus();
});

test('times out after 60 s without an answer', () => {
  jest.useFakeTimers();
  const on = handlers();
  const { rerender } = render(<IncomingCallModal call={privateCall} soundEnabled={false} {...on} />);
  act(() => jest.advanceTimersByTime(config.incomingCallAutoCloseMs - 1));
  // A parent re-rendering with new callbacks does not restart the count.
  const latest = handlers();
  rerender(<IncomingCallModal call={privateCall} soundEnabled={false} {...latest} />);
  expect(latest.onTimeout).not.toHaveBeenCalled();
  act(() => jest.advanceTimersByTime(1));
  expect(latest.onTimeout).toHaveBeenCalledTimes(1);
  expect(on.onTimeout).not.toHaveBeenCalled();
  expect(config.incomingCallAutoCloseMs).toBe(60_000);
});

test('does not time out once it is gone', () => {
  jest.useFakeTimers();
  const on = handlers();
  const { unmount } = render(<IncomingCallModal call={privateCall} soundEnabled={false} {...on} />);
  unmount();
  act(() => jest.advanceTimersByTime(config.incomingCallAutoCloseMs));
  expect(on.onTimeout).not.toHaveBeenCalled();
});

test('rings while shown when sound is on, and stops when closed', () => {
  const { unmount } = render(<IncomingCallModal call={privateCall} soundEnabled {...handlers()} />);
  expect(mockStartRing).toHaveBeenCalledWith('incoming');
  expect(mockStopRing).not.toHaveBeenCalled();
  unmount();
  expect(mockStopRing).toHaveBeenCalledTimes(1);
});

test('stays silent when sound is off', () => {
  render(<IncomingCallModal call={privateCall} soundEnabled={false} {...handlers()} />);
  expect(mockStartRing).not.toHaveBeenCalled();
});
