/** The 7 placeholder gradients of spec §3. */
export const AVATAR_GRADIENTS = [
  'linear-gradient(135deg, #ff885e, #ff516a)',
  'linear-gradient(135deg, #ffcd6a, #ffa85c)',
  'linear-gradient(135deg, #82b1ff, #665fff)',
  'linear-gradient(135deg, #a0de7e, #54cb68)',
  'linear-gradient(135deg, #53edd6, #28c9b7)',
  'linear-gradient(135deg, #72d5fd, #2a9ef1)',
  'linear-gradient(135deg, #e0a2f3, #d669ed)',
] as const;

/** The placeholder for a name: its first letter, capitalised, on a gradient chosen by that letter's code. */
export function avatarPlaceholder(name: string): { letter: string; gradient: string } {
  const letter = [...name.trim()][0]?.toLocaleUpperCase() ?? '?';
  const code = letter.codePointAt(0) ?? 0;
  return { letter, gradient: AVATAR_GRADIENTS[code % AVATAR_GRADIENTS.length]! };
}
