import { adminAuthEnv, dataServiceEnv } from '@readiness/kit/config';
import { checkObjectStorage, objectStorageEnv } from '@readiness/kit/storage';
import { z } from 'zod';

/** Every key is the environment variable it reads. */
export const configSchema = z
  .object({
    ...dataServiceEnv,
    ...adminAuthEnv,
    /** The product's bucket, read only: the certificate PDFs the report service stored, mailed from there. */
    ...objectStorageEnv,
    /** SMTP relay, e.g. `smtp://user:pass@relay:587`; without it mail goes to an in-process catcher. */
    SMTP_URL: z.string().url().optional(),
    MAIL_FROM: z.string().min(3).default('Readiness <no-reply@readiness.local>'),
    /** The site's own origin: links in mail point there. */
    PUBLIC_ORIGIN: z.string().url().default('http://localhost:8080'),
    /**
     * Whom the invitation mail tells students to contact with questions (a name, an address or both), written as it
     * is in every language; unset, the mail says "the administrator who invited you" in the student's language.
     */
    MAIL_CONTACT: z.string().trim().min(3).optional(),
    /** Deliveries of one event before a mail that keeps failing is given up (and dead-lettered). */
    MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(6),
    /**
     * How long one delivery may hold a mail before another delivery takes it over (its process died mid-send).
     * Longer than any SMTP exchange: the mailer's timeouts are well under it.
     */
    MAIL_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
  })
  .superRefine((c, ctx) => {
    checkObjectStorage(c, ctx);
    if (c.NODE_ENV === 'production' && !c.SMTP_URL) {
      ctx.addIssue({ code: 'custom', path: ['SMTP_URL'], message: 'is required in production' });
    }
  });

export type NotificationConfig = z.infer<typeof configSchema>;
export type NotificationConfigInput = z.input<typeof configSchema>;
