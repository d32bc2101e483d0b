import { readFileSync } from 'node:fs';

export const COMMON_PASSWORD_MESSAGE = 'This password is too common. Please choose a less predictable one.';

let common: Set<string> | undefined;

/**
 * The 10,000 most common passwords (Mark Burnett's list, shipped as a text file by the `common-password`
 * package; its own lookup compares CRC32 sums, so only the list is used). Read once, on the first check.
 */
function commonPasswords(): Set<string> {
  common ??= new Set(
    readFileSync(require.resolve('common-password/lib/10k most common.txt'), 'utf8')
      .split(/\r?\n/)
      .map((line) => line.trim().toLowerCase())
      .filter(Boolean),
  );
  return common;
}

/** True for a password on the list, in any letter case (ASVS 5, 2.1.7: refused when set or changed). */
export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.toLowerCase());
}
