import type { Message } from './types';

/**
 * A message with every field this client reads, even from a server node that does not send them yet (a cluster
 * being upgraded one node at a time): the newer fields get their empty values instead of breaking a store.
 */
export function withMessageDefaults(message: Message): Message {
  const partial = message as Partial<Pick<Message, 'edited_at' | 'reactions' | 'mentions'>> & Message;
  if (partial.reactions !== undefined && partial.mentions !== undefined && partial.edited_at !== undefined) return message;
  return { ...message, edited_at: partial.edited_at ?? null, reactions: partial.reactions ?? [], mentions: partial.mentions ?? [] };
}
