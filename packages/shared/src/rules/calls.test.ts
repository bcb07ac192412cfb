import { formatCallDuration, unansweredCall } from './calls';

test('a call lasts mm:ss, and hh:mm:ss from one hour on', () => {
  expect(formatCallDuration(0)).toBe('00:00');
  expect(formatCallDuration(65_400)).toBe('01:05');
  expect(formatCallDuration(3_599_999)).toBe('59:59');
  expect(formatCallDuration(3_600_000)).toBe('01:00:00');
  expect(formatCallDuration(3_661_000)).toBe('01:01:01');
  expect(formatCallDuration(-5_000)).toBe('00:00');
});

test('a call that never connected reads differently for the caller and the called', () => {
  expect(unansweredCall('missed', true)).toBe('noAnswer');
  expect(unansweredCall('missed', false)).toBe('missed');
  expect(unansweredCall('rejected', true)).toBe('declined');
  expect(unansweredCall('rejected', false)).toBe('declined');
  expect(unansweredCall('busy', true)).toBe('busy');
  expect(unansweredCall('busy', false)).toBe('missed');
  expect(unansweredCall('ended', true)).toBeNull();
  expect(unansweredCall(undefined, false)).toBeNull();
});
