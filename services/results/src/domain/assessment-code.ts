import { randomBytes } from 'node:crypto';

/** Digits and capitals without 0/O and 1/I, which are misread aloud and on paper: 32 symbols, 5 bits each. */
const CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/**
 * A result's assessment code, e.g. `RDY-7K3F-92QX`: 40 bits from the CSPRNG (32 divides 256, so every symbol
 * is equally likely). It is the certificate's verification code; the unique index catches the rare collision
 * and the caller draws again.
 */
export function newAssessmentCode(): string {
  const bytes = randomBytes(8);
  const symbols = Array.from(bytes, (b) => CODE_ALPHABET[b % 32]).join('');
  return `RDY-${symbols.slice(0, 4)}-${symbols.slice(4)}`;
}
