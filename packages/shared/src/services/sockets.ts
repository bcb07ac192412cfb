import { api } from '../api/client';
import { FlowClient, type FlowClientOptions } from '../events/flow-client';
import { ChatSocket } from '../events/chat-socket';
import { socketOrigin } from './socket-urls';

export function createFlowClient(options: Omit<FlowClientOptions, 'url' | 'getToken'>): FlowClient {
  return new FlowClient({
    ...options,
    url: (token, since) =>
      `${socketOrigin()}/api/user/flow?token=${encodeURIComponent(token)}${since === null ? '' : `&since=${since}`}`,
    getToken: (renew) => (renew ? api.refreshAccessToken() : api.freshAccessToken()),
  });
}

/** The one chat socket of this tab, opened on the first send. */
export const chatSocket = new ChatSocket({
  url: (token) => `${socketOrigin()}/api/chat/socket?token=${encodeURIComponent(token)}`,
  getToken: (renew) => (renew ? api.refreshAccessToken() : api.freshAccessToken()),
});
