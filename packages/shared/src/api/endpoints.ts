// One typed function per server route (docs/api.md). Components and stores call these, never fetch.
import type { FileInfo } from '../model/types';
import type { AddContactBody, Answer, EditManagerBody, EditUserBody, OwnPasswordBody, Static } from '@messenger/protocol';
// Route tables as types only: what each route answers comes from its schema, and no schema reaches a build.
import type { authRoutes, callRoutes, chatRoutes, contactRoutes, fileRoutes, messageRoutes, pushRoutes, staffRoutes, statsRoutes, userRoutes } from '@messenger/protocol';
import { api } from './client';

export const authApi = {
  sendCode: (phone: string) =>
    api.request<Answer<typeof authRoutes.sendCode>>('POST', '/auth/send-code', { body: { phone }, auth: false }),
  signInManager: (phone: string, password: string, inviteCode?: string) =>
    api.request<Answer<typeof authRoutes.signInManager>>('POST', '/auth/sign-in-manager', { body: { phone, password }, query: { code: inviteCode }, auth: false }),
  signInManagerExtra: (phone: string, password: string, ticket: string, inviteCode?: string) =>
    api.request<Answer<typeof authRoutes.signInManagerExtra>>('POST', '/auth/sign-in-manager-extra', {
      body: { phone, password, ticket },
      query: { code: inviteCode },
      auth: false,
    }),
  signIn: (phone: string, code: string, inviteCode?: string) =>
    api.request<Answer<typeof authRoutes.signIn>>('POST', '/auth/sign-in', {
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

export type EditProfileInput = EditUserBody;

export const userApi = {
  me: () => api.get<Answer<typeof userRoutes.me>>('/user').then((response) => response.user),
  edit: (changes: EditProfileInput) => api.put<Answer<typeof userRoutes.edit>>('/user/edit', changes).then((response) => response.user),
  profile: (id: number) => api.get<Answer<typeof userRoutes.profile>>(`/user/${id}`).then((response) => response.user),
  /** Whether someone I share a chat with (or have as a contact) is online, as far as they let me see. */
  presence: (id: number) => api.get<Answer<typeof userRoutes.presence>>(`/user/${id}/presence`).then((response) => response.presence),
  find: (query: string) => api.get<Answer<typeof userRoutes.find>>('/user/find', { query }).then((response) => response.users),
  /** Follows an invite link: signed in, opens the chat with the inviter; not signed in, makes a guest account. */
  followInvite: (code: string, signedIn: boolean) =>
    api.request<Answer<typeof chatRoutes.link>>('POST', '/user/link', { query: { code }, auth: signedIn }),
  /** Admins only (spec §6): block or unblock someone below them. */
  setBlocked: (userId: number, blocked: boolean) =>
    api.put<Answer<typeof userRoutes.block>>('/user/block', { user_id: userId, blocked }).then((response) => response.user),
  setPasswords: (input: Static<typeof OwnPasswordBody>) =>
    api.post<Answer<typeof staffRoutes.ownPasswords>>('/user/password', input).then((response) => response.user),
  setPhone: (phone: string) => api.put<Answer<typeof userRoutes.setPhone>>('/user/phone', { phone }),
  verifyPhone: (phone: string, code: string) => api.put<Answer<typeof userRoutes.verifyPhone>>('/user/phone/verify', { phone, code }),
};

export type AddContactInput = AddContactBody;

export const contactsApi = {
  list: () => api.get<Answer<typeof contactRoutes.list>>('/user/contacts').then((response) => response.contacts),
  add: (input: AddContactInput) => api.post<Answer<typeof contactRoutes.add>>('/user/contacts/add', input),
  rename: (userId: number, name: string) =>
    api.put<Answer<typeof contactRoutes.edit>>('/user/contacts/edit', { user_id: userId, name }).then((response) => response.contact),
  remove: (userId: number) => api.delete<Answer<typeof contactRoutes.remove>>(`/user/contacts/${userId}`),
};

export type ChatListResponse = Answer<typeof chatRoutes.list>;

export const chatsApi = {
  list: () => api.get<ChatListResponse>('/chat/list'),
  get: (id: number) => api.get<Answer<typeof chatRoutes.get>>(`/chat/${id}`).then((response) => response.chat),
  createPrivate: (userId: number) =>
    api.post<Answer<typeof chatRoutes.create>>('/chat/create', { chat_type: 'private', participants: [userId] }).then((response) => response.chat),
  history: (chatId: number, options: { pageSize: number; beforeId?: number }) =>
    api.get<Answer<typeof chatRoutes.history>>('/chat/history', {
      chat_id: chatId,
      page_size: options.pageSize,
      before_id: options.beforeId,
    }),
  /** Marks a chat read up to `upTo` (the newest message the person has seen; later ones stay unread), else all of it. */
  markRead: (chatId: number, upTo?: number) =>
    api.put<Answer<typeof chatRoutes.read>>('/chat/read', undefined, { chat_id: chatId, message_id: upTo }),
  /** Changes the text of one of my text messages (within 48 hours of sending it); answers with it as it now is. */
  editMessage: (messageId: number, text: string) => api.put<Answer<typeof messageRoutes.edit>>(`/chat/message/${messageId}`, { text }).then((response) => response.message),
  /** Gives my reaction to a message (replacing mine), or with null takes it back; answers with its reactions now. */
  react: (messageId: number, emoji: string | null) =>
    (emoji === null
      ? api.delete<Answer<typeof messageRoutes.unreact>>(`/chat/message/${messageId}/reaction`)
      : api.put<Answer<typeof messageRoutes.react>>(`/chat/message/${messageId}/reaction`, { emoji })
    ).then((response) => response.reactions),
  /** Who has read one of my messages (its sender only). */
  readers: (messageId: number) => api.get<Answer<typeof messageRoutes.readers>>(`/chat/message/${messageId}/readers`).then((response) => response.readers),
  unreadCount: (chatId: number) => api.get<Answer<typeof chatRoutes.unreadCount>>(`/chat/unread-count/${chatId}`),
  createGroup: (input: { name: string; participants: number[]; avatar?: string | null; isSecret?: boolean }) =>
    api
      .post<Answer<typeof chatRoutes.create>>('/chat/create', {
        chat_type: 'group',
        name: input.name,
        participants: input.participants,
        ...(input.avatar ? { avatar: input.avatar } : {}),
        ...(input.isSecret ? { is_secret: true } : {}),
      })
      .then((response) => response.chat),
  edit: (chatId: number, changes: { name?: string; avatar?: string | null }) =>
    api.put<Answer<typeof chatRoutes.edit>>('/chat/edit', { chat_id: chatId, ...changes }).then((response) => response.chat),
  manageParticipants: (chatId: number, actions: Array<{ add: boolean; participants: number[] }>) =>
    api.put<Answer<typeof chatRoutes.manageParticipants>>('/chat/manage-participants', { chat_id: chatId, actions }).then((response) => response.chat),
  join: (code: string) => api.post<Answer<typeof chatRoutes.join>>('/chat/join', { code }).then((response) => response.chat),
  find: (query: string, isAdmin = false) =>
    api.get<Answer<typeof chatRoutes.find>>('/chat/find', { query, is_admin: isAdmin || undefined }).then((response) => response.chats),
  remove: (chatId: number) => api.delete<Answer<typeof chatRoutes.remove>>(`/chat/${chatId}`),
  setNotifications: (chatId: number, notifications: boolean) =>
    api.put<Answer<typeof chatRoutes.notifications>>('/chat/notifications', { chat_id: chatId, notifications }),
  setInterval: (chatId: number, interval: number) => api.put<Answer<typeof chatRoutes.interval>>('/chat/interval', { chat_id: chatId, interval }),
  /** Ids of the chat's messages containing `query`, newest first. */
  search: (chatId: number, query: string) =>
    api.get<Answer<typeof chatRoutes.search>>('/chat/search', { chat_id: chatId, query }).then((response) => response.message_ids),
  deleteMessage: (messageId: number, isLastMessage: boolean) =>
    api.delete<Answer<typeof messageRoutes.remove>>(`/chat/message/${messageId}`, { is_last_message: isLastMessage }),
};

export const filesApi = {
  tokens: (paths: string[], admin = false) =>
    api.post<Answer<typeof fileRoutes.tokens>>('/file/tokens', { paths, ...(admin ? { admin: true } : {}) }),
  deleteAll: () => api.delete<Answer<typeof fileRoutes.deleteAll>>('/file/delete/all'),
};

export type { FileInfo };

export const callsApi = {
  history: () => api.get<Answer<typeof callRoutes.history>>('/chat/call/history').then((response) => response.calls),
  /** Calls a chat, or joins the call already running there. */
  start: (chatId: number) => api.post<Answer<typeof callRoutes.start>>('/meet/call', { chat_id: chatId }),
  reject: (chatId: number) => api.post<Answer<typeof callRoutes.reject>>('/meet/reject', { chat_id: chatId }),
  ticket: (chatId: number) => api.get<Answer<typeof callRoutes.ticket>>('/meet/get-token', { chat_id: chatId }),
  participants: (chatId: number) =>
    api.get<Answer<typeof callRoutes.participants>>('/meet/participants', { chat_id: chatId }).then((response) => response.participants),
  running: (chatId: number) => api.get<Answer<typeof callRoutes.running>>('/chat/call-id', { chat_id: chatId }),
  /** Admins only: whether this chat's calls are recorded. */
  recording: (chatId: number) => api.get<Answer<typeof callRoutes.recording>>('/chat/recording', { chat_id: chatId }),
  /** Admins only: record the audio of this chat's calls. */
  setRecording: (chatId: number, enabled: boolean) => api.put<Answer<typeof callRoutes.setRecording>>('/chat/recording', { chat_id: chatId, enabled }),
};

export const statsApi = {
  total: (days: number) => api.get<Answer<typeof statsRoutes.total>>('/stats/total', { days }),
  managers: (days: number) => api.get<Answer<typeof statsRoutes.managers>>('/stats/managers', { days }).then((response) => response.managers),
};

export type EmployeeChanges = Omit<EditManagerBody, 'user_id'>;

/** Staff screens (role ≥ 2). */
export const staffApi = {
  list: (filters: { managers?: boolean; query?: string; deleted?: boolean }) =>
    api
      .get<Answer<typeof staffRoutes.list>>('/user/all', { managers: filters.managers || undefined, query: filters.query || undefined, deleted: filters.deleted || undefined }),
  createManager: (input: { phone: string; name: string; notes?: string }) =>
    api.post<Answer<typeof staffRoutes.createManager>>('/user/manager', input),
  edit: (userId: number, changes: EmployeeChanges) =>
    api.put<Answer<typeof staffRoutes.edit>>('/user/manager', { user_id: userId, ...changes }),
  setRole: (userId: number, role: number) => api.put<Answer<typeof staffRoutes.setRole>>('/user/role', { user_id: userId, role_id: role }).then((response) => response.user),
  setMuted: (userId: number, isMuted: boolean) => api.put<Answer<typeof staffRoutes.setMuted>>('/user/mute', { user_id: userId, isMuted }).then((response) => response.user),
  setBlocked: (userId: number, blocked: boolean) => api.put<Answer<typeof userRoutes.block>>('/user/block', { user_id: userId, blocked }).then((response) => response.user),
  remove: (userId: number) => api.delete<Answer<typeof staffRoutes.remove>>(`/user/${userId}`),
  secretChats: () => api.get<Answer<typeof chatRoutes.listAll>>('/chat/list/all'),
  fileTree: (path: string) => api.get<Answer<typeof fileRoutes.tree>>('/file/tree', { path }),
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

/** A browser's push subscription as the server keeps it (`PushSubscription.toJSON()` and the language). */
export interface PushSubscriptionInput {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  language: string;
}

/** Web Push (docs/api.md "Push"): the server's VAPID key, and this browser's subscription. */
export const pushApi = {
  key: () => api.get<Answer<typeof pushRoutes.key>>('/push/key').then((response) => response.public_key),
  subscribe: (subscription: PushSubscriptionInput) => api.put<void>('/push/subscription', subscription),
  unsubscribe: (endpoint: string) => api.request<void>('DELETE', '/push/subscription', { body: { endpoint } }),
};
