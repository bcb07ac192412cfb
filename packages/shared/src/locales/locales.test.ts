/// <reference types="node" />
import { localeProblems } from '@messenger/build-config/locale-parity';

test('every language has every key of en (common namespace)', () => {
  expect(localeProblems(__dirname)).toEqual([]);
});
