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

/**
 * Whether HOST keeps the product to this machine (a loopback address or `localhost`). Beyond loopback, the caught
 * mail and the API document answer signed-in admins only.
 */
export function onLoopbackOnly(host: string): boolean {
  const address = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (address === 'localhost' || address === '::1') return true;
  const v4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}
