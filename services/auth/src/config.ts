import { dataServiceEnv, env, jwtEnv } from '@readiness/kit/config';
import { z } from 'zod';

/** Every key is the environment variable it reads. */
export const configSchema = z
  .object({
    ...dataServiceEnv,
    /** Redis for throttling and revocation; without it an in-memory store is used (one process only). */
    REDIS_URL: env.optionalUrl(),
    /** RSA private key (PEM) that signs admin tokens. Required in production: replicas must share it. */
    JWT_PRIVATE_KEY: env.optionalSecret(),
    /** Public keys (PEM, concatenated) of retired signing keys whose tokens are still accepted during a rotation. */
    JWT_PREVIOUS_PUBLIC_KEYS: env.optionalSecret(),
    ...jwtEnv,
    /**
     * Token lifetime. 8 hours covers an administrator's working day; the web app renews the token through
     * /api/auth/refresh when less than 10 minutes remain, so an active session never expires mid-task, and a
     * stolen token is useless after a day at most (logout and disable revoke it sooner).
     */
    JWT_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .max(24 * 3600)
      .default(8 * 3600),
    /**
     * How long, in minutes, a fresh proof of the person (the password, an authenticator code or a passkey, or a
     * sign-in) lets a session change the admin's passkeys, authenticator app and recovery codes. Fractions are
     * allowed.
     */
    STEP_UP_MINUTES: z.coerce.number().positive().max(60).default(5),
    /** bcrypt cost; undefined means 12 in production and 10 elsewhere (each +1 doubles the time of a hash). */
    BCRYPT_COST: z.coerce.number().int().min(10).max(15).optional(),
    /** Worker threads that hash passwords, so a burst of logins never blocks the event loop. */
    BCRYPT_WORKERS: z.coerce.number().int().min(1).max(16).optional(),
    SEED_ADMIN_EMAIL: env.optionalSecret(),
    SEED_ADMIN_PASSWORD: env.optionalSecret(),
    /** The site's own origin (used in logs and mails); the gateway serves the browser. */
    PUBLIC_ORIGIN: z.string().url().default('http://localhost:8080'),
    /**
     * Single sign-on with the institution's OpenID Provider (authorization code flow with PKCE): its issuer URL,
     * HTTPS except on a loopback address. Unset, admins sign in with their passwords only.
     */
    OIDC_ISSUER: env.optionalUrl(),
    OIDC_CLIENT_ID: env.optionalSecret(),
    /** The client's secret at the provider; without one Readiness is a public client (PKCE only). */
    OIDC_CLIENT_SECRET: env.optionalSecret(),
    /** The provider's name on the login page's button: 'Sign in with {OIDC_DISPLAY_NAME}'. */
    OIDC_DISPLAY_NAME: z.string().trim().min(1).max(60).default('your institution'),
  })
  .superRefine((c, ctx) => {
    if (c.NODE_ENV === 'production' && !c.JWT_PRIVATE_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['JWT_PRIVATE_KEY'],
        message: 'is required in production (every replica must sign with the same key)',
      });
    }
    for (const problem of singleSignOnProblems(c)) ctx.addIssue({ code: 'custom', ...problem });
    if ((c.SEED_ADMIN_EMAIL === undefined) !== (c.SEED_ADMIN_PASSWORD === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['SEED_ADMIN_PASSWORD'],
        message: 'SEED_ADMIN_EMAIL and SEED_ADMIN_PASSWORD go together',
      });
    }
  })
  .transform((c) => ({ ...c, BCRYPT_COST: c.BCRYPT_COST ?? (c.NODE_ENV === 'production' ? 12 : 10) }));

export type AuthConfig = z.infer<typeof configSchema>;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The provider's settings go together, and its issuer is HTTPS unless it runs on this machine (tests, trials). */
function singleSignOnProblems(c: {
  OIDC_ISSUER?: string;
  OIDC_CLIENT_ID?: string;
  OIDC_ALLOW_PASSWORD: boolean;
}): Array<{ path: string[]; message: string }> {
  if (!c.OIDC_ISSUER) {
    if (c.OIDC_CLIENT_ID) return [{ path: ['OIDC_ISSUER'], message: 'is required with OIDC_CLIENT_ID' }];
    if (!c.OIDC_ALLOW_PASSWORD) {
      return [
        { path: ['OIDC_ALLOW_PASSWORD'], message: 'false needs OIDC_ISSUER: admins could not sign in' },
      ];
    }
    return [];
  }
  const problems: Array<{ path: string[]; message: string }> = [];
  const issuer = new URL(c.OIDC_ISSUER);
  if (issuer.protocol !== 'https:' && !(issuer.protocol === 'http:' && LOOPBACK.has(issuer.hostname))) {
    problems.push({
      path: ['OIDC_ISSUER'],
      message: 'must be an https:// URL (http:// only on a loopback address)',
    });
  }
  if (!c.OIDC_CLIENT_ID) problems.push({ path: ['OIDC_CLIENT_ID'], message: 'is required with OIDC_ISSUER' });
  return problems;
}
/** What `start()` accepts: every key with a default may be left out. */
export type AuthConfigInput = z.input<typeof configSchema>;
