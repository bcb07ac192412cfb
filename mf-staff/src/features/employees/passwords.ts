import { GENERATED_PASSWORD } from '@messenger/shared';

/** The letters of a made password: the server's own (wire contract), none that can be mistaken for another. */
const ALPHABET = GENERATED_PASSWORD.alphabet;

/** A strong random password (CSPRNG, unbiased), for an admin to hand over once. */
export function generatePassword(length: number = GENERATED_PASSWORD.length): string {
  const limit = 256 - (256 % ALPHABET.length);
  let out = '';
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < limit && out.length < length) out += ALPHABET[byte % ALPHABET.length];
    }
  }
  return out;
}
