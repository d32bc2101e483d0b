import { shownPercentageSchema } from '@readiness/contracts';
import { z } from 'zod';

export const resultParams = z.object({
  id: z.string().trim().min(1, 'Result not found').max(100, 'Result not found'),
});

/** Codes are short letters, digits and hyphens (e.g. RDY-7K3F-92QX). */
export const codeParams = z.object({
  code: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9-]{3,64}$/, 'No certificate has this code'),
});

export const signedLinkQuery = z.object({
  expires: z.coerce
    .number({ error: 'This download link is not valid' })
    .int('This download link is not valid'),
  signature: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'This download link is not valid'),
});

export const verificationOut = z.object({
  valid: z.literal(true),
  name: z.string(),
  assessmentTitle: z.string(),
  percentage: shownPercentageSchema,
  issuedAt: z.string(),
});

/** A presented VC-JWT: three base64url parts (a changed byte elsewhere is the signature's to find). */
export const credentialBody = z.object({
  credential: z.string().trim().min(1, 'Paste a credential').max(20_000, 'This is not a credential'),
});

export const credentialCheckOut = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('genuine'),
    code: z.string(),
    name: z.string(),
    assessmentTitle: z.string(),
    percentage: shownPercentageSchema,
    issuedAt: z.string(),
  }),
  z.object({ status: z.literal('revoked'), code: z.string() }),
  z.object({ status: z.literal('altered') }),
]);

export const jwksOut = z.object({
  keys: z.array(z.object({ kty: z.string(), kid: z.string(), n: z.string(), e: z.string() }).loose()),
});
