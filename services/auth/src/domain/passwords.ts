import { randomInt } from 'node:crypto';

/**
 * bcrypt reads at most 72 bytes of a password and ignores the rest, so two long passwords with the same
 * first 72 bytes would be interchangeable. Longer passwords are refused with a clear message rather than
 * silently truncated or pre-hashed (pre-hashing would make the stored hashes depend on a scheme that every
 * future verifier must remember).
 */
export const MAX_PASSWORD_BYTES = 72;
export const MIN_PASSWORD_LENGTH = 6;

export function passwordBytes(password: string): number {
  return Buffer.byteLength(password, 'utf8');
}

const LOWER = 'abcdefghijkmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';
const SYMBOLS = '!@#$%^&*-_=+?';
const ALL = LOWER + UPPER + DIGITS + SYMBOLS;

/**
 * A temporary password that is mailed to the admin: 20 characters from a CSPRNG, at least one of each class,
 * without look-alike characters (l, 1, I, O, 0) because people retype it from an e-mail. ~120 bits.
 */
export function temporaryPassword(length = 20): string {
  const pick = (alphabet: string) => alphabet[randomInt(alphabet.length)] as string;
  const chars = [pick(LOWER), pick(UPPER), pick(DIGITS), pick(SYMBOLS)];
  while (chars.length < length) chars.push(pick(ALL));
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j] as string, chars[i] as string];
  }
  return chars.join('');
}
