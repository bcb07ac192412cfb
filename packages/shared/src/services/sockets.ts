import { api } from '../api/client';
import { FlowClient, type FlowClientOptions } from '../events/flow-client';
import { ChatSocket } from '../events/chat-socket';

/** ws(s)://host — the sockets live on the page's own origin, under /api. */
function socketOrigin(): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}`;
}

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
