import type { Chat, Contact, PublicUser } from '../model/types';
import { displayName } from './display-name';

export interface ChatDisplay {
  name: string;
  avatar: string | null;
  /** The other person of a private chat. */
  peerId: number | null;
}

/**
 * How a chat is named and pictured (spec §4): a private chat by its other person — their contact entry first,
 * else their cached profile; a group by its own name.
 */
export function chatDisplay(chat: Chat, myId: number, contacts: Contact[], profiles: Record<number, PublicUser>): ChatDisplay {
  if (chat.chat_type !== 'private') return { name: displayName({ chat_name: chat.name }), avatar: chat.avatar, peerId: null };
  const peerId = chat.participants.find((id) => id !== myId) ?? null;
  const contact = peerId === null ? undefined : contacts.find((candidate) => candidate.id === peerId);
  const profile = peerId === null ? undefined : profiles[peerId];
  return {
    name: displayName(contact, profile, { chat_name: chat.name }),
    avatar: contact?.avatar ?? profile?.avatar ?? null,
    peerId,
  };
}
