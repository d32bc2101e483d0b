import type { Server } from 'node:http';
import { createJwtVerifier, type JwtVerifier } from '@readiness/kit/auth';
import type { EventBus } from '@readiness/kit/bus';
import {
  createMemoryStore,
  createRateLimiter,
  createRedisStore,
  createRevocationList,
  type KeyValueStore,
  type Redis,
} from '@readiness/kit/cache';
import { migrate, type Database } from '@readiness/kit/db';
import { createHttpApp, listen, startInternalServer, type HttpApp } from '@readiness/kit/http';
import type { Logger } from '@readiness/kit/logger';
import { kitMigrationsDir, OutboxRelay } from '@readiness/kit/outbox';
import type { Registry } from 'prom-client';
import { configSchema, type AuthConfig, type AuthConfigInput } from './config';
import { migrationsDir } from './data-access/migrations-dir';
import { createAdminAccounts, type AdminAccounts } from './domain/admin-accounts';
import {
  ACCOUNT_FAILURES,
  ADDRESS_FAILURES,
  createLoginThrottle,
  LOCKOUT_SECONDS,
  WINDOW_SECONDS,
} from './domain/login-throttle';
import { createPasswordHasher } from './domain/password-hasher';
import { temporaryPassword } from './domain/passwords';
import { loadSigningKeys, type SigningKeys } from './domain/signing-keys';
import { createTokenIssuer } from './domain/tokens';
import { mountRoutes } from './entry-points/http/routes';

export interface AuthDeps {
  /** Parsed config, or raw values parsed here (tests pass a partial object). */
  config: AuthConfig | AuthConfigInput;
  logger: Logger;
  database: Database;
  /** Publishes the admin events (through the outbox relay). */
  bus: EventBus;
  /**
   * Redis for login throttling and token revocation, shared by every replica (and read by the gateway). Its
   * key prefix is the caller's business. Without it, `kv` (or a private in-memory store) and per-process limits.
   */
  redis?: Redis;
  /** The key-value store for revocations when there is no Redis (the all-in-one shares one with the gateway). */
  kv?: KeyValueStore;
  registry?: Registry;
}

export interface RunningAuthService {
  url: string;
  port: number;
  /** `/metrics` and `/readyz?verbose`. */
  internalUrl: string;
  http: HttpApp;
  server: Server;
  /** The super admin created on this start with a generated password (development only), to print once. */
  seededAdmin?: { email: string; password: string };
  /** Verifies tokens of this service with its own keys (no JWKS round trip); for in-process consumers. */
  verifier: JwtVerifier;
  /** The public keys (`{ keys: [...] }`), as served at /.well-known/jwks.json. */
  jwks: SigningKeys['jwks'];
  accounts: AdminAccounts;
  stop(): Promise<void>;
}

const DEFAULT_SEED_EMAIL = 'admin@example.com';

export async function start(deps: AuthDeps): Promise<RunningAuthService> {
  const config: AuthConfig = configSchema.parse(deps.config);
  const { logger, database, bus } = deps;

  await migrate(database, [kitMigrationsDir, migrationsDir], logger);

  const keys = await loadSigningKeys({
    privateKeyPem: config.JWT_PRIVATE_KEY,
    previousPublicKeysPem: config.JWT_PREVIOUS_PUBLIC_KEYS,
    dataDir: config.DATA_DIR,
    logger,
  });
  const verifier = createJwtVerifier({
    publicKeys: keys.publicKeys,
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
    logger,
  });
  const ownsKv = !deps.redis && !deps.kv;
  const kv = deps.redis ? createRedisStore({ client: deps.redis }) : (deps.kv ?? createMemoryStore());
  const limiter = (keyPrefix: string, points: number) =>
    createRateLimiter({
      store: deps.redis ? 'redis' : 'memory',
      redis: deps.redis,
      keyPrefix,
      points,
      durationSeconds: WINDOW_SECONDS,
      blockDurationSeconds: LOCKOUT_SECONDS,
      logger,
    });
  const hasher = createPasswordHasher({ cost: config.BCRYPT_COST, workers: config.BCRYPT_WORKERS });
  const relay = new OutboxRelay({
    database,
    publisher: bus,
    logger,
    source: 'auth',
    registry: deps.registry,
  });

  const accounts = createAdminAccounts({
    database,
    hasher,
    tokens: createTokenIssuer({
      keys,
      issuer: config.JWT_ISSUER,
      audience: config.JWT_AUDIENCE,
      ttlSeconds: config.JWT_TTL_SECONDS,
    }),
    verifier,
    revocations: createRevocationList(kv),
    throttle: createLoginThrottle({
      account: limiter('login-fail:account', ACCOUNT_FAILURES),
      address: limiter('login-fail:address', ADDRESS_FAILURES),
    }),
    tokenTtlSeconds: config.JWT_TTL_SECONDS,
    logger,
    onEventsCommitted: () => relay.notify(),
  });

  const seededAdmin = await seed(accounts, config, logger);
  relay.start();
  await accounts.warmUp();

  const http = createHttpApp({
    name: 'auth',
    logger,
    registry: deps.registry,
    readiness: async () => (await database.ping()) && (await kv.ping()),
    trustedProxies: config.TRUSTED_PROXIES,
    routes: (app) => mountRoutes(app, { accounts, keys }),
  });
  const server = await listen(http.app, config.PORT, config.HOST);
  const internal = await startInternalServer(http, config);
  logger.info({ url: server.url }, 'auth service listening');

  let stopping: Promise<void> | undefined;
  return {
    url: server.url,
    port: server.port,
    internalUrl: internal.url,
    http,
    server: server.server,
    seededAdmin,
    verifier,
    jwks: keys.jwks,
    accounts,
    stop() {
      stopping ??= (async () => {
        http.setDraining();
        await server.close();
        await internal.close();
        await relay.stop();
        await hasher.close();
        if (ownsKv) await kv.close();
      })();
      return stopping;
    },
  };
}

async function seed(
  accounts: AdminAccounts,
  config: AuthConfig,
  logger: Logger,
): Promise<{ email: string; password: string } | undefined> {
  if (config.SEED_ADMIN_EMAIL && config.SEED_ADMIN_PASSWORD) {
    const email = config.SEED_ADMIN_EMAIL.trim().toLowerCase();
    const created = await accounts.seed({ email, password: config.SEED_ADMIN_PASSWORD, name: 'Super Admin' });
    if (created) logger.info({ email }, 'created the first super admin from SEED_ADMIN_EMAIL');
    return undefined;
  }
  if (config.NODE_ENV === 'production') {
    if (!(await accounts.listAdmins()).length) {
      logger.warn('no admin exists and SEED_ADMIN_EMAIL/SEED_ADMIN_PASSWORD are not set: nobody can sign in');
    }
    return undefined;
  }
  const password = temporaryPassword();
  const created = await accounts.seed({ email: DEFAULT_SEED_EMAIL, password, name: 'Super Admin' });
  if (!created) return undefined;
  // Printed once, on the start that created the account; it is never stored in clear anywhere.
  logger.warn(
    { seededAdmin: { email: DEFAULT_SEED_EMAIL, initialPassword: password } },
    '*** FIRST START: created super admin admin@example.com with a generated initial password, printed only on this start; sign in and change it ***',
  );
  return { email: DEFAULT_SEED_EMAIL, password };
}
