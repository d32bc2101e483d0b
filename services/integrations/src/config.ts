import { adminAuthEnv, dataServiceEnv, env } from '@readiness/kit/config';
import { z } from 'zod';

/** Every key is the environment variable it reads. */
export const configSchema = z
  .object({
    ...dataServiceEnv,
    ...adminAuthEnv,
    /**
     * The site's own origin, as the LMS reaches it: the tool's URLs (`/api/lti/login`, `/api/lti/launch`,
     * `/api/lti/jwks`) are under it, and a launch may only lead there.
     */
    PUBLIC_ORIGIN: z.string().url().default('http://localhost:8080'),
    /** RSA private key (PEM) the tool signs with (its keys at /api/lti/jwks). Required in production. */
    LTI_PRIVATE_KEY: env.optionalSecret(),
    /** Public keys (PEM, concatenated) of retired tool keys, still published during a rotation. */
    LTI_PREVIOUS_PUBLIC_KEYS: env.optionalSecret(),
    /**
     * Lets a registration name its LMS's URLs over plain http on a loopback address (localhost, 127.0.0.1, ::1):
     * a developer's LMS, the tests'. Refused in production; https everywhere else.
     */
    LTI_ALLOW_HTTP_LOOPBACK: env.bool(false),
    /** How long a login initiation waits for its launch (the LMS answers at once), in seconds. */
    LTI_LOGIN_TTL_SECONDS: z.coerce.number().int().min(30).max(3600).default(300),
    /** How far the LMS's clock may be from ours when its id_token's `iat` and `exp` are read, in seconds. */
    LTI_CLOCK_SKEW_SECONDS: z.coerce.number().int().min(0).max(300).default(30),
    /** How long a score the LMS does not take is tried again before it is given up, in hours. */
    LTI_GRADE_GIVE_UP_HOURS: z.coerce
      .number()
      .min(0.001)
      .max(24 * 30)
      .default(72),
    /** The first wait after a failed try to send a score, in milliseconds; each next one doubles (15 min at most). */
    LTI_GRADE_RETRY_BASE_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
    /**
     * The grade sender's longest pause, in milliseconds: it sends the scores its replica keeps at once and a retry
     * when it is due; this is how soon it finds the scores another replica kept.
     */
    LTI_GRADE_INTERVAL_MS: z.coerce.number().int().min(50).max(600_000).default(30_000),
    /**
     * Lets webhook endpoints be on loopback and private addresses, over plain http too (tests, `make start`).
     * Link-local and cloud metadata addresses stay refused. Refused in production.
     */
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: env.bool(false),
    /** How long a webhook delivery is tried, and an endpoint may keep failing before it is disabled, in hours. */
    WEBHOOK_GIVE_UP_HOURS: z.coerce
      .number()
      .min(0.001)
      .max(24 * 30)
      .default(72),
    /** The first wait after a failed webhook delivery, in milliseconds; each next one doubles (15 min at most). */
    WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
    /**
     * The webhook sender's longest pause, in milliseconds: it sends what its replica queues at once and a retry when
     * it is due; this is how soon it finds what another replica queued.
     */
    WEBHOOK_INTERVAL_MS: z.coerce.number().int().min(50).max(600_000).default(30_000),
    /**
     * Login initiations (`/api/lti/login`) per client address and minute. Each keeps a row until it lapses; a
     * classroom behind one address launches at once, hence a generous default. Counted in Redis when REDIS_URL is set.
     */
    LTI_LOGIN_RATE_LIMIT: z.coerce.number().int().min(1).default(300),
  })
  .superRefine((c, ctx) => {
    if (c.NODE_ENV !== 'production') return;
    if (!c.LTI_PRIVATE_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['LTI_PRIVATE_KEY'],
        message: 'is required in production (every replica must sign with the same key)',
      });
    }
    if (c.WEBHOOK_ALLOW_PRIVATE_NETWORKS) {
      ctx.addIssue({
        code: 'custom',
        path: ['WEBHOOK_ALLOW_PRIVATE_NETWORKS'],
        message: 'is refused in production',
      });
    }
    if (c.LTI_ALLOW_HTTP_LOOPBACK) {
      ctx.addIssue({
        code: 'custom',
        path: ['LTI_ALLOW_HTTP_LOOPBACK'],
        message: 'is refused in production',
      });
    }
  });

export type IntegrationsConfig = z.infer<typeof configSchema>;
export type IntegrationsConfigInput = z.input<typeof configSchema>;
