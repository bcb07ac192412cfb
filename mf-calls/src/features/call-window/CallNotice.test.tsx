import { act } from '@testing-library/react';
import { initTestI18n } from '@messenger/shared/testing';
import { config, useNotificationsStore } from '@messenger/shared';
import '../../i18n';
import { callNotice } from './CallNotice';

beforeAll(async () => {
  await initTestI18n();
});

beforeEach(() => {
  useNotificationsStore.getState().clear();
});

afterEach(() => {
  jest.useRealTimers();
});

const items = () => useNotificationsStore.getState().items.map(({ kind, text }) => ({ kind, text }));

test('warns that the call was rejected, for 5 s', () => {
  jest.useFakeTimers();
  callNotice('rejected');
  expect(items()).toEqual([{ kind: 'warning', text: 'The call was rejected' }]);
  act(() => jest.advanceTimersByTime(config.callRejectedNoticeMs - 1));
  expect(items()).toHaveLength(1);
  act(() => jest.advanceTimersByTime(1));
  expect(items()).toHaveLength(0);
});

test('warns about a busy callee and a second call', () => {
  callNotice('busy');
  callNotice('alreadyInCall');
  expect(items()).toEqual([
    { kind: 'warning', text: 'Call was interrupted because the user is currently busy' },
    { kind: 'warning', text: 'You cannot make two or more calls at the same time' },
  ]);
});

test("shows the error's own text for media failures, else the generic one", () => {
  callNotice('mediaFailed', new Error('Permission denied'));
  callNotice('mediaFailed');
  callNotice('screenShareFailed', 'The user cancelled');
  callNotice('screenShareFailed', {});
  expect(items()).toEqual([
    { kind: 'error', text: 'Permission denied' },
    { kind: 'error', text: 'Could not access the camera or microphone' },
    { kind: 'error', text: 'The user cancelled' },
    { kind: 'error', text: 'Failed to start screen sharing' },
  ]);
});
