import { TYPING_SHOWN_MS, useTypingStore } from './typing';

const anna = { id: 1, name: 'Anna', username: null };
const boris = { id: 2, name: 'Boris', username: 'boris' };

afterEach(() => useTypingStore.getState().clear());

test('keeps who is typing per chat, in the order they started, and renews a repeated signal', () => {
  const store = useTypingStore.getState();
  store.started({ chat_id: 7, user: anna }, 1_000);
  store.started({ chat_id: 7, user: boris }, 1_500);
  store.started({ chat_id: 7, user: anna }, 3_000);
  store.started({ chat_id: 8, user: boris }, 3_000);
  const chat7 = useTypingStore.getState().byChat[7]!;
  expect(chat7.map((typist) => typist.id)).toEqual([1, 2]);
  expect(chat7[0]!.until).toBe(3_000 + TYPING_SHOWN_MS);
  expect(useTypingStore.getState().byChat[8]!.map((typist) => typist.id)).toEqual([2]);
});

test('forgets a typist whose time ran out, and one whose message arrived', () => {
  const store = useTypingStore.getState();
  store.started({ chat_id: 7, user: anna }, 0);
  store.started({ chat_id: 7, user: boris }, 4_000);
  store.expire(TYPING_SHOWN_MS + 1);
  expect(useTypingStore.getState().byChat[7]!.map((typist) => typist.id)).toEqual([2]);
  useTypingStore.getState().stopped(7, 2);
  expect(useTypingStore.getState().byChat[7]).toBeUndefined();
});

test('clears the indicator by itself when no further signal comes', () => {
  jest.useFakeTimers();
  try {
    useTypingStore.getState().started({ chat_id: 7, user: anna });
    jest.advanceTimersByTime(TYPING_SHOWN_MS - 100);
    expect(useTypingStore.getState().byChat[7]).toHaveLength(1);
    jest.advanceTimersByTime(200);
    expect(useTypingStore.getState().byChat[7]).toBeUndefined();
  } finally {
    jest.useRealTimers();
  }
});
