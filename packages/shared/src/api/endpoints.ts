// One typed function per server route (docs/api.md). Components and stores call these, never fetch.
import type { CallRecord, Chat, ChatMetadata, Contact, JwtInfo, Me, Message, PublicUser, TotalStats } from '../model/types';
import { api } from './client';

export const authApi = {
  sendCode: (phone: string) => api.request<{ is_manager: boolean; resend_after: number }>('POST', '/auth/send-code', { body: { phone }, auth: false }),
  signIn: (phone: string, code: string, inviteCode?: string) =>
    api.request<{ jwt_info: JwtInfo; is_new_user: boolean }>('POST', '/auth/sign-in', {
      body: { phone, code },
      query: { code: inviteCode },
      auth: false,
    }),
  signOut: (refreshToken: string) =>
    fetch('/api/auth/sign-out', { method: 'POST', headers: { authorization: `Bearer ${refreshToken}` }, keepalive: true }).then(
      () => undefined,
      () => undefined,
    ),
};

export interface EditProfileInput {
  name?: string;
  username?: string | null;
  popup_notifications?: boolean;
  sound_notifications?: boolean;
  private_notifications?: boolean;
}

export const userApi = {
  me: () => api.get<{ user: Me }>('/user').then((response) => response.user),
  edit: (changes: EditProfileInput) => api.put<{ user: Me }>('/user/edit', changes).then((response) => response.user),
  profile: (id: number) => api.get<{ user: PublicUser }>(`/user/${id}`).then((response) => response.user),
  find: (query: string) => api.get<{ users: PublicUser[] }>('/user/find', { query }).then((response) => response.users),
};

export interface AddContactInput {
  user_phone?: string;
  name: string;
  username?: string;
}

export const contactsApi = {
  list: () => api.get<{ contacts: Contact[] }>('/user/contacts').then((response) => response.contacts),
  add: (input: AddContactInput) => api.post<{ added: boolean; invited: boolean; contact?: Contact }>('/user/contacts/add', input),
  rename: (userId: number, name: string) =>
    api.put<{ contact: Contact }>('/user/contacts/edit', { user_id: userId, name }).then((response) => response.contact),
  remove: (userId: number) => api.delete<{ deleted: boolean }>(`/user/contacts/${userId}`),
};

export interface ChatListResponse {
  chats: Chat[];
  metadata: ChatMetadata[];
  users: PublicUser[];
  seq: number;
}

export const chatsApi = {
  list: () => api.get<ChatListResponse>('/chat/list'),
  get: (id: number) => api.get<{ chat: Chat }>(`/chat/${id}`).then((response) => response.chat),
  createPrivate: (userId: number) =>
    api.post<{ chat: Chat }>('/chat/create', { chat_type: 'private', participants: [userId] }).then((response) => response.chat),
  history: (chatId: number, options: { pageSize: number; beforeId?: number }) =>
    api.get<{ messages: Message[]; has_more: boolean }>('/chat/history', {
      chat_id: chatId,
      page_size: options.pageSize,
      before_id: options.beforeId,
    }),
  markRead: (chatId: number) => api.put<{ chat_id: number; unread_messages: number }>('/chat/read', undefined, { chat_id: chatId }),
  unreadCount: (chatId: number) => api.get<{ chat_id: number; unread_messages: number }>(`/chat/unread-count/${chatId}`),
};

export const callsApi = {
  history: () => api.get<{ calls: CallRecord[] }>('/chat/call/history').then((response) => response.calls),
};

export const statsApi = {
  total: (days: number) => api.get<TotalStats>('/stats/total', { days }),
};

export interface RemoteDescriptor {
  /** Federation name the remote was built with. */
  name: string;
  /** URL of its mf-manifest.json. */
  entry: string;
}

/** The remotes the shell loads, from the server's `/remotes.json` (not under /api, and public). */
export const remotesApi = {
  list: async (): Promise<RemoteDescriptor[]> => {
    const response = await fetch('/remotes.json', { cache: 'no-cache' });
    if (!response.ok) throw new Error(`remotes.json: HTTP ${response.status}`);
    return ((await response.json()) as { remotes: RemoteDescriptor[] }).remotes;
  },
};
