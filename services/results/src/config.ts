import { adminAuthEnv, dataServiceEnv } from '@readiness/kit/config';
import { z } from 'zod';

/** Every key is the environment variable it reads. */
export const configSchema = z.object({
  ...dataServiceEnv,
  ...adminAuthEnv,
  /**
   * How long a submission whose assessment version has not reached this service yet keeps being retried before
   * it is dead-lettered, in hours. The version event is normally seconds behind; this only bounds a version
   * that never comes.
   */
  RESULTS_VERSION_WAIT_HOURS: z.coerce
    .number()
    .min(0.001)
    .max(24 * 30)
    .default(72),
});

export type ResultsConfig = z.infer<typeof configSchema>;
export type ResultsConfigInput = z.input<typeof configSchema>;
