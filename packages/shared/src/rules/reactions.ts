/** The reactions a person can give (the server accepts exactly these), with the key of each one's spoken name. */
export const REACTIONS = [
  { emoji: '👍', name: 'reactions.like' },
  { emoji: '❤️', name: 'reactions.love' },
  { emoji: '😂', name: 'reactions.laugh' },
  { emoji: '😮', name: 'reactions.wow' },
  { emoji: '😢', name: 'reactions.sad' },
  { emoji: '🙏', name: 'reactions.thanks' },
] as const;

/** The translation key (namespace `messenger`) of an emoji's name; an unknown one is shown as itself. */
export function reactionName(emoji: string): string | null {
  return REACTIONS.find((reaction) => reaction.emoji === emoji)?.name ?? null;
}
