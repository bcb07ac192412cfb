import { useEffect, useState } from 'react';
import { displayName, useAuthStore, useChatsStore, useContactsStore, useUsersStore } from '@messenger/shared';

export interface MentionCandidate {
  id: number;
  name: string;
  username: string;
}

/** The "@abc" being typed right before the caret (after a space or at the start), or null. */
export function mentionQuery(text: string, caret: number): { start: number; query: string } | null {
  const match = /(^|\s)@([A-Za-z0-9_]{0,60})$/.exec(text.slice(0, caret));
  if (!match) return null;
  return { start: caret - match[2]!.length - 1, query: match[2]!.toLowerCase() };
}

const SHOWN = 6;

/**
 * @username completion in a group's composer: while an "@…" is being typed, the members (not me) whose username
 * starts with it — or whose name does — with one of them active for the keyboard.
 */
export function useMentionSuggestions(chatId: number, text: string, caret: number) {
  const me = useAuthStore((state) => state.user?.id);
  const chat = useChatsStore((state) => state.chats.find((candidate) => candidate.id === chatId));
  const contacts = useContactsStore((state) => state.contacts);
  const profiles = useUsersStore((state) => state.profiles);
  const [active, setActive] = useState(0);
  const [dismissedAt, setDismissedAt] = useState<string | null>(null);
  const typed = chat?.chat_type === 'group' ? mentionQuery(text, caret) : null;
  const key = typed ? `${typed.start}:${typed.query}` : null;
  // The members' usernames come with their profiles: fetch those not known yet once an @ is typed.
  const participants = chat?.participants;
  const asking = typed !== null;
  useEffect(() => {
    if (asking && participants) void useUsersStore.getState().ensure(participants);
  }, [asking, participants]);
  const candidates: MentionCandidate[] =
    typed && key !== dismissedAt
      ? (chat?.participants ?? [])
          .filter((id) => id !== me)
          .flatMap((id) => {
            const profile = profiles[id];
            const contact = contacts.find((candidate) => candidate.id === id);
            const username = profile?.username ?? contact?.username;
            if (!username || profile?.deleted || contact?.deleted) return [];
            const name = displayName(contact, profile);
            const matches = username.toLowerCase().startsWith(typed.query) || name.toLowerCase().startsWith(typed.query);
            return matches ? [{ id, name, username }] : [];
          })
          .slice(0, SHOWN)
      : [];
  const index = Math.min(active, Math.max(candidates.length - 1, 0));
  return {
    candidates,
    active: index,
    /** Moves the keyboard's choice (wrapping round). */
    move: (step: number) => setActive((index + step + candidates.length) % Math.max(candidates.length, 1)),
    /** The text with the chosen username in place of "@abc", and where the caret goes. */
    pick: (candidate: MentionCandidate): { text: string; caret: number } => {
      const inserted = `@${candidate.username} `;
      setActive(0);
      return { text: text.slice(0, typed!.start) + inserted + text.slice(caret), caret: typed!.start + inserted.length };
    },
    /** Closes the list until something else is typed. */
    dismiss: () => setDismissedAt(key),
  };
}
