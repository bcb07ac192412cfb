import { applyFlowEvent } from './session';
import { useAuthStore } from '../stores/auth';
import { useChatsStore } from '../stores/chats';
import { useMessagesStore } from '../stores/messages';
import type { FlowEvent } from '../model/events';
import type { Me } from '../model/types';
import { storedMessage } from '../testing/messages';

test('a chat-deleted event (I left or was removed) drops the chat and its messages', () => {
  useAuthStore.getState().setUser({ id: 1, role: 0 } as Me);
  useChatsStore.setState({ chats: [{ id: 4 } as never], loaded: true, snapshotSeq: 10, activeChatId: null });
  useMessagesStore.setState({
    threads: { 4: { messages: [{ ...storedMessage(500, 4, 2), state: 'sent' }], hasMore: true, loading: false, loaded: true, error: null, cachedIds: [] } },
  });
  applyFlowEvent({ seq: 11, event_type: 'chat-deleted', additional_info: { chat_id: 4 } } as FlowEvent);
  expect(useChatsStore.getState().chats).toEqual([]);
  expect(useMessagesStore.getState().threads[4]).toBeUndefined();
});
