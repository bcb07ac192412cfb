import { useNotificationsStore } from './notifications';

describe('notifications centre', () => {
  beforeEach(() => {
    jest.useFakeTimers();
    useNotificationsStore.getState().clear();
  });
  afterEach(() => jest.useRealTimers());

  it('keeps at most 5, dropping the oldest', () => {
    for (let i = 1; i <= 6; i += 1) useNotificationsStore.getState().push({ kind: 'message', text: `n${i}` });
    expect(useNotificationsStore.getState().items.map((item) => item.text)).toEqual(['n2', 'n3', 'n4', 'n5', 'n6']);
  });

  it('dismisses message notifications after 10 s and toasts after 3 s', () => {
    useNotificationsStore.getState().push({ kind: 'message', text: 'message' });
    useNotificationsStore.getState().push({ kind: 'success', text: 'toast' });
    jest.advanceTimersByTime(3000);
    expect(useNotificationsStore.getState().items.map((item) => item.text)).toEqual(['message']);
    jest.advanceTimersByTime(7000);
    expect(useNotificationsStore.getState().items).toEqual([]);
  });

  it('drops the toasts of a message that was deleted, and only those', () => {
    useNotificationsStore.getState().push({ kind: 'message', text: 'secret', messageId: 7, chat: { id: 1 } });
    useNotificationsStore.getState().push({ kind: 'message', text: 'other', messageId: 8, chat: { id: 1 } });
    useNotificationsStore.getState().push({ kind: 'success', text: 'toast' });
    useNotificationsStore.getState().dismissMessage(7);
    expect(useNotificationsStore.getState().items.map((item) => item.text)).toEqual(['other', 'toast']);
  });
});
