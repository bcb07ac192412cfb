import { act } from '@testing-library/react';
import { initTestI18n } from '@messenger/shared/testing';
import { MediaAccessError, config, useNotificationsStore } from '@messenger/shared';
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

test("a device the browser refused is told in the person's words, whatever the browser's own text", () => {
  callNotice('mediaFailed', new MediaAccessError('Permission denied', 'NotAllowedError'));
  callNotice('mediaFailed', new MediaAccessError('Requested device not found', 'NotFoundError'));
  callNotice('mediaFailed', new MediaAccessError('Something new', 'WeirdError'));
  // A screen share cancelled in the browser's picker (NotAllowedError) is not a camera refusal.
  callNotice('screenShareFailed', new MediaAccessError('Permission denied', 'NotAllowedError'));
  expect(items()).toEqual([
    { kind: 'error', text: "Access to the microphone or camera was refused. Allow it in your browser's settings for this site." },
    { kind: 'error', text: 'No microphone or camera was found.' },
    { kind: 'error', text: 'Could not access the microphone or camera.' },
    { kind: 'error', text: 'Failed to start screen sharing' },
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
