import { Backoff } from './backoff';

test('waits double each attempt up to the ceiling, each within the upper half of its step, and starts over after a reset', () => {
  const lowest = new Backoff(500, 4_000, () => 0);
  expect([1, 2, 3, 4, 5].map(() => lowest.next())).toEqual([250, 500, 1_000, 2_000, 2_000]);
  const highest = new Backoff(500, 4_000, () => 1);
  expect([1, 2, 3, 4, 5].map(() => highest.next())).toEqual([500, 1_000, 2_000, 4_000, 4_000]);
  highest.reset();
  expect(highest.next()).toBe(500);
});
