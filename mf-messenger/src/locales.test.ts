/// <reference types="node" />
import { join } from 'node:path';
import { localeProblems } from '@messenger/build-config/locale-parity';

test('every language has every key of en', () => {
  expect(localeProblems(join(__dirname, 'locales'))).toEqual([]);
});
