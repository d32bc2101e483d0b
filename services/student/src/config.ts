import { adminAuthEnv, dataServiceEnv } from '@readiness/kit/config';
import { z } from 'zod';

/** Every key is the environment variable it reads. */
export const configSchema = z.object({
  ...dataServiceEnv,
  ...adminAuthEnv,
  /** Days an invitation stays valid when the student never starts; resending renews it. */
  INVITE_TTL_DAYS: z.coerce.number().int().min(1).max(3650).default(60),
  /** The site's own origin: invitation links are `{PUBLIC_ORIGIN}/assessment/{inviteToken}`. */
  PUBLIC_ORIGIN: z.string().url().default('http://localhost:8080'),
  /** Largest CSV file an import accepts, in bytes (5 MB, about 50,000 rows). */
  STUDENT_IMPORT_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(5 * 1024 * 1024),
});

export type StudentConfig = z.infer<typeof configSchema>;
export type StudentConfigInput = z.input<typeof configSchema>;
