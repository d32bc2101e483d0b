import { env, serviceEnv } from '@readiness/kit/config';
import { z } from 'zod';

export const launcherConfigSchema = z
  .object({
    PORT: env.port(8080),
    /** Loopback unless told otherwise: `make start` is for one machine, not a network (set 0.0.0.0 to share it). */
    HOST: z.string().default('127.0.0.1'),
    DATA_DIR: z.string().default('.data'),
    LOG_LEVEL: env.logLevel().default('warn'),
    NODE_ENV: z.enum(['development', 'test']).default('development'),
    PUBLIC_ORIGIN: z.string().url().optional(),
    WEB_DIST_DIR: z.string().default('web/dist'),
    SHUTDOWN_GRACE_SECONDS: serviceEnv.SHUTDOWN_GRACE_SECONDS,
    /** An SMTP server for the mail the product sends; without it mail is caught in memory (/dev/mail). */
    SMTP_URL: z.string().url().optional(),
  })
  .transform((c) => ({ ...c, PUBLIC_ORIGIN: c.PUBLIC_ORIGIN ?? `http://localhost:${c.PORT}` }));
