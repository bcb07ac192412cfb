import { ApiError, sendMessage, uploadFile, useAuthStore, type ChatMessage } from '@messenger/shared';
import { initTestI18n } from '@messenger/shared/testing';
import '../../../i18n';
import { useChatUiStore } from '../chatUiStore';
import { useUploadsStore } from './uploadsStore';

jest.mock('@messenger/shared', () => ({ ...jest.requireActual('@messenger/shared'), uploadFile: jest.fn(), sendMessage: jest.fn() }));

const upload = uploadFile as jest.MockedFunction<typeof uploadFile>;
const send = sendMessage as jest.MockedFunction<typeof sendMessage>;

beforeAll(async () => {
  await initTestI18n();
});

test('a failed upload keeps its file with Try again; it then goes, as a reply to what was being answered when it started', async () => {
  const quoted = { id: 5, chat_id: 7 } as ChatMessage;
  useChatUiStore.getState().setReplyTo(7, quoted);
  const stored = { path: '2026/01/v.webm', name: 'voice.webm', size: 3, mime: 'audio/webm' };
  upload.mockRejectedValueOnce(new ApiError(0, 'network', 'offline')).mockResolvedValueOnce(stored);
  const voice = new File(['abc'], 'voice.webm', { type: 'audio/webm' });

  await useUploadsStore.getState().start(7, voice, { type: 'audio', meta: { duration_ms: 1200 } });
  const [failed] = useUploadsStore.getState().uploads;
  expect(failed).toMatchObject({ chatId: 7, name: 'voice.webm', failed: expect.any(String) });
  expect(send).not.toHaveBeenCalled();
  // The reply bar closed when the upload began: a reply begun meanwhile is not taken by this file.
  expect(useChatUiStore.getState().replyTo[7]).toBeUndefined();

  failed!.retry!();
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(send).toHaveBeenCalledWith({ chatId: 7, type: 'audio', file: stored, meta: { duration_ms: 1200 }, replyTo: quoted });
  expect(useUploadsStore.getState().uploads).toEqual([]);
});

test('signing out takes the failed uploads away: the next person here never sends them', async () => {
  useAuthStore.getState().setUser({ id: 1, role: 0 } as never);
  upload.mockRejectedValueOnce(new ApiError(0, 'network', 'offline'));
  await useUploadsStore.getState().start(7, new File(['abc'], 'voice.webm', { type: 'audio/webm' }), { type: 'audio', meta: { duration_ms: 900 } });
  expect(useUploadsStore.getState().uploads).toHaveLength(1);
  useAuthStore.getState().setUser(null);
  expect(useUploadsStore.getState().uploads).toEqual([]);
});
