import { mentionQuery } from './useMentionSuggestions';

test('an @ being typed right before the caret, at the start or after a space — not inside a word or an address', () => {
  expect(mentionQuery('@', 1)).toEqual({ start: 0, query: '' });
  expect(mentionQuery('hi @Bo', 6)).toEqual({ start: 3, query: 'bo' });
  expect(mentionQuery('hi @Bo and more', 6)).toEqual({ start: 3, query: 'bo' });
  expect(mentionQuery('mail a@bo', 9)).toBeNull();
  expect(mentionQuery('hi @bo there', 12)).toBeNull();
  expect(mentionQuery('hi @bo-', 7)).toBeNull();
});
