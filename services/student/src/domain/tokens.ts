import { createHash, randomBytes } from 'node:crypto';

/** A fresh invitation token: 32 bytes from the CSPRNG (256 bits), base64url. */
export const newInviteToken = () => randomBytes(32).toString('base64url');

/** What is stored to find a student from a link: the SHA-256 of the token. */
export const tokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest();

export const inviteUrl = (publicOrigin: string, token: string) =>
  `${publicOrigin.replace(/\/+$/, '')}/assessment/${token}`;
