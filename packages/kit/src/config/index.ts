import { isIP } from 'node:net';
import { z } from 'zod';

export { dataDirSecret } from './data-dir-secret';

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/**
 * Parses the environment against a zod schema and fails fast with one readable line per problem.
 * Each key of the schema is the environment variable it reads.
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  // `FOO=` in a shell, a compose file or a Helm value means "not set": without this an empty PORT
  // coerces to 0 (a random port) and an empty optional URL fails as invalid.
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== ''),
  );
  const parsed = schema.safeParse(present);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`);
  throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
}

/** Common building blocks for service config schemas. */
export const env = {
  port: (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback),
  /** A flag from the environment; a value already read (a boolean) reads the same, so a parsed config parses again. */
  bool: (fallback: boolean) =>
    z
      .preprocess(
        (v) => (typeof v === 'boolean' ? String(v) : v),
        z
          .string()
          .trim()
          .toLowerCase()
          .pipe(z.enum(['true', 'false', '1', '0', 'yes', 'no']))
          .transform((v) => v === 'true' || v === '1' || v === 'yes'),
      )
      .default(fallback),
  url: () => z.string().url(),
  /** A secret such as a PEM key: blank is unset. */
  optionalSecret: () =>
    z
      .string()
      .optional()
      .transform((v) => (v && v.trim() ? v : undefined)),
  optionalUrl: () => z.string().url().optional(),
  logLevel: () => z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  nodeEnv: () => z.enum(['development', 'test', 'production']).default('development'),
};

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An address, a CIDR range or one of Express's names for a range (`loopback`, `linklocal`, `uniquelocal`). */
function isProxyEntry(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address = '', bits, extra] = entry.split('/');
  const family = isIP(address);
  if (!family || extra !== undefined) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d{1,3}$/.test(bits) && n <= (family === 4 ? 32 : 128);
}

/** `TRUSTED_PROXIES`: a hop count, or a comma-separated list of addresses and CIDR ranges. */
const trustedProxies = () =>
  z
    .string()
    .trim()
    .refine(
      (value) => /^\d{1,2}$/.test(value) || value.split(',').every((e) => isProxyEntry(e.trim())),
      'must be a hop count (e.g. 1) or a comma-separated list of addresses and CIDR ranges (e.g. 10.0.0.0/8)',
    )
    .optional();

/** What every service reads: spread into its schema (`z.object({ ...serviceEnv, ... })`). */
export const serviceEnv = {
  NODE_ENV: env.nodeEnv(),
  LOG_LEVEL: env.logLevel(),
  PORT: env.port(8080),
  HOST: z.string().default('0.0.0.0'),
  /**
   * On SIGTERM, how long in-flight requests get to finish before their connections are cut; each shutdown step
   * is bounded by it plus 5 s. The chart sets the pod's terminationGracePeriodSeconds from the same value.
   */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).max(600).default(10),
  /**
   * Port of `/metrics` and verbose readiness, never exposed publicly; unset = 9464, or a free port when PORT is 0
   * (tests).
   */
  INTERNAL_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /**
   * Peers whose `X-Forwarded-For` is believed: a hop count or addresses/CIDR ranges of the proxies in front.
   * Unset = none: the client address is the socket's.
   */
  TRUSTED_PROXIES: trustedProxies(),
};

/** `BUS_RETRY_DELAYS_MS`: a comma-separated list of waits in milliseconds, each between 1 ms and a day. */
const retryDelays = () =>
  z
    .string()
    .transform((v) => v.split(',').map(Number))
    .pipe(z.array(z.number().int().min(1).max(86_400_000)).min(1))
    .optional();

/** What a service with its own database and events reads; the embedded defaults apply when a URL is unset. */
export const dataServiceEnv = {
  ...serviceEnv,
  /** PostgreSQL; without it an embedded PostgreSQL server under `${DATA_DIR}/postgres` is started. */
  DATABASE_URL: env.optionalUrl(),
  /** Connections in the service's PostgreSQL pool (each replica); the server's max_connections bounds the sum. */
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * Send parameterised statements as named prepared statements (parsed and planned once per connection). Turn off
   * behind PgBouncer in transaction mode unless it keeps prepared statements (`max_prepared_statements`).
   */
  DATABASE_PREPARED_STATEMENTS: env.bool(true),
  DATA_DIR: z.string().default('.data'),
  /** RabbitMQ; without it the in-process bus is used. */
  AMQP_URL: env.optionalUrl(),
  /**
   * How long a failed delivery of an event waits before each retry, in milliseconds, comma-separated (the last one
   * repeats until the handler's attempts are spent); unset, the bus's defaults (1 s, 5 s, 25 s, then 120 s).
   */
  BUS_RETRY_DELAYS_MS: retryDelays(),
  /**
   * How often a service with background consumers (`yieldsToStudents`) reads the waiting room's flag, in
   * milliseconds; they pause while students wait and resume after three reads in a row find nobody waiting.
   */
  BUS_YIELD_CHECK_MS: z.coerce.number().int().min(10).max(60_000).default(2_000),
  /**
   * Seals the secret fields of events (32 bytes, base64; publisher and consumers share it). Required in
   * production; elsewhere generated once under DATA_DIR (see the outbox's `loadEventSecretBox`).
   */
  EVENT_SECRETS_KEY: z
    .string()
    .refine((v) => Buffer.from(v.trim(), 'base64').length === 32, 'must be 32 bytes, base64-encoded')
    .optional(),
};

/**
 * Who signs admin tokens and for whom: the auth service stamps these claims and every verifier (the gateway and
 * each service's own admin-route check) pins them. Spread into every schema that signs or verifies tokens, so
 * one setting reaches all of them.
 */
export const jwtEnv = {
  JWT_ISSUER: z.string().min(1).default('readiness-auth'),
  JWT_AUDIENCE: z.string().min(1).default('readiness-admin'),
  /**
   * A session's absolute maximum age, in hours, from its sign-in: auth renews no token past it, and every verifier
   * refuses a token of a session that began longer ago, so a shorter setting applies at once. Fractions are allowed
   * (tests use seconds).
   */
  ADMIN_SESSION_MAX_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 30)
    .default(12),
  /**
   * False (with single sign-on): only super admins may sign in with a password or a passkey alone, and every
   * verifier refuses other admins' tokens that were signed in that way, whenever they were issued.
   */
  OIDC_ALLOW_PASSWORD: env.bool(true),
};

/** What a service that checks admin tokens on its own `/api/admin` routes reads (see the kit's `adminGuard`). */
export const adminAuthEnv = {
  ...jwtEnv,
  /** The auth service; its key set is fetched from `/.well-known/jwks.json` there unless AUTH_JWKS_URL says otherwise. */
  AUTH_URL: env.optionalUrl(),
  AUTH_JWKS_URL: env.optionalUrl(),
  /** Where auth writes token revocations (sessions logged out, admins disabled or reset). */
  REDIS_URL: env.optionalUrl(),
};
