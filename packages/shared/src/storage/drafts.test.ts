import { drafts } from './drafts';
import { localSettings } from './local';
import { signOut } from '../services/session';
import { useAuthStore } from '../stores/auth';
import type { Me } from '../model/types';

beforeEach(() => localStorage.clear());

test('a draft is kept per person and chat; blank text removes it, and the last one removes the entry', () => {
  drafts.set(5, 1, 'hello');
  drafts.set(5, 2, 'second chat');
  drafts.set(6, 1, "someone else's");
  expect(drafts.get(5, 1)).toBe('hello');
  expect(drafts.get(5, 2)).toBe('second chat');
  expect(drafts.get(6, 1)).toBe("someone else's");
  expect(drafts.get(5, 3)).toBe('');
  drafts.set(5, 1, '   ');
  expect(drafts.get(5, 1)).toBe('');
  drafts.set(5, 2, '');
  expect(localSettings.get('drafts.5')).toBeNull();
  expect(drafts.get(6, 1)).toBe("someone else's");
});

test('what cannot be read is no draft, and does not stop a new one', () => {
  localSettings.set('drafts.5', '{not json');
  expect(drafts.get(5, 1)).toBe('');
  localSettings.set('drafts.5', '["a list"]');
  expect(drafts.get(5, 1)).toBe('');
  drafts.set(5, 1, 'fresh');
  expect(drafts.get(5, 1)).toBe('fresh');
});

test('signing out removes the person’s drafts, and only theirs', () => {
  drafts.set(5, 1, 'unsent');
  drafts.set(6, 1, 'another person on this browser');
  useAuthStore.getState().setUser({ id: 5 } as Me);
  signOut();
  expect(drafts.get(5, 1)).toBe('');
  expect(drafts.get(6, 1)).toBe('another person on this browser');
});

test('whoever shows drafts hears of every change, and stops hearing once unsubscribed', () => {
  const heard = jest.fn();
  const stop = drafts.subscribe(heard);
  drafts.set(7, 1, 'draft');
  drafts.set(7, 1, '');
  drafts.clear(7);
  expect(heard).toHaveBeenCalledTimes(3);
  stop();
  drafts.set(7, 1, 'again');
  expect(heard).toHaveBeenCalledTimes(3);
});
