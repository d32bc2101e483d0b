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
