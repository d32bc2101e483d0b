import { adminAuthEnv, dataServiceEnv, env } from '@readiness/kit/config';
import { checkObjectStorage, objectStorageEnv } from '@readiness/kit/storage';
import { z } from 'zod';

/** Every key is the environment variable it reads. */
export const configSchema = z
  .object({
    ...dataServiceEnv,
    ...adminAuthEnv,
    ...objectStorageEnv,
    /** On a first start with no version yet, create the sample readiness assessment. */
    ASSESSMENT_SEED: env.bool(true),
    /** Largest question file an admin may upload, in bytes (20 MB). */
    ASSESSMENT_FILE_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1)
      .max(64 * 1024 * 1024)
      .default(20 * 1024 * 1024),
    /** Largest Moodle XML file or QTI package an admin may import, in bytes (20 MB; the gateway takes 25 MB). */
    ASSESSMENT_IMPORT_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1)
      .max(25 * 1024 * 1024)
      .default(20 * 1024 * 1024),
  })
  .superRefine((c, ctx) => {
    checkObjectStorage(c, ctx);
  });

export type AssessmentConfig = z.infer<typeof configSchema>;
export type AssessmentConfigInput = z.input<typeof configSchema>;
