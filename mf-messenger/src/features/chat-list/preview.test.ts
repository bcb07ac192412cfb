import { initTestI18n } from '@messenger/shared/testing';
import '../../i18n';
import { messagePreview } from './preview';

beforeAll(async () => {
  await initTestI18n();
});

test('a recorded voice message reads as one; an attached audio file by its name', () => {
  const file = { path: '2026/01/a.mp3', name: 'episode-12.mp3', size: 1000, mime: 'audio/mpeg' };
  expect(messagePreview({ type: 'audio', text: '', file, meta: { duration_ms: 4200 } })).toBe('Voice message');
  expect(messagePreview({ type: 'audio', text: '', file, meta: {} })).toBe('episode-12.mp3');
  expect(messagePreview({ type: 'audio', text: 'listen', file, meta: {} })).toBe('listen');
});
