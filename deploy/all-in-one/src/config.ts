import { env } from '@readiness/kit/config';
import { z } from 'zod';

export const launcherConfigSchema = z
  .object({
    PORT: env.port(8080),
    HOST: z.string().default('0.0.0.0'),
    DATA_DIR: z.string().default('.data'),
    LOG_LEVEL: env.logLevel().default('warn'),
    NODE_ENV: z.enum(['development', 'test']).default('development'),
    PUBLIC_ORIGIN: z.string().url().optional(),
    WEB_DIST_DIR: z.string().default('web/dist'),
  })
  .transform((c) => ({ ...c, PUBLIC_ORIGIN: c.PUBLIC_ORIGIN ?? `http://localhost:${c.PORT}` }));
