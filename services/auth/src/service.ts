import path from 'node:path';
import { Counter } from 'prom-client';
import {
  createJwtVerifier,
  loadSigningKeys,
  sessionRulesOf,
  type JwtVerifier,
  type SigningKeys,
} from '@readiness/kit/auth';
import { createMemoryStore, createRateLimiter } from '@readiness/kit/cache';
import type { Logger } from '@readiness/kit/logger';
import { loadEventSecretBox } from '@readiness/kit/outbox';
import { answerStudentExport, defineService, every, type ServiceParts } from '@readiness/kit/runtime';
import { configSchema, type AuthConfig } from './config';
import { createAdminAccounts, relyingPartyOf, type AdminAccounts } from './domain/admin-accounts';
import {
  ACCOUNT_FAILURES,
  ADDRESS_FAILURES,
  createLoginThrottle,
  LOCKOUT_SECONDS,
  SECOND_FACTOR_FAILURES,
  SSO_REFUSAL_AUDITS,
  WINDOW_SECONDS,
} from './domain/login-throttle';
import type { PasswordHasher } from './domain/credentials';
import { temporaryPassword } from './domain/passwords';
import { createDurableRevocations } from './domain/revocations';
import { createAuditTrail } from './domain/audit-trail';
import { authApi } from './entry-points/http/api';
import { studentExportFiles } from './data-access/audit-trail-repository';
import { adminAlertConsumers } from './entry-points/messaging/admin-alerts';
import { auditTrailConsumers } from './entry-points/messaging/audit-trail';
import { createIdentityProvider } from './infrastructure/identity-provider';
import { createPasswordHasher } from './infrastructure/password-hasher';
import { createTokenIssuer } from './infrastructure/token-issuer';

export interface AuthExports {
  /** The super admin created on this start with a generated password (development only), to print once. */
  seededAdmin?: { email: string; password: string };
  /** Verifies tokens of this service with its own keys (no JWKS round trip); for in-process consumers. */
  verifier: JwtVerifier;
  /** The public keys (`{ keys: [...] }`), as served at /.well-known/jwks.json. */
  jwks: SigningKeys['jwks'];
  accounts: AdminAccounts;
}

/** What an in-process caller may set beyond the config. */
export interface AuthOptions {
  /**
   * The bcrypt cost of new hashes, in place of BCRYPT_COST and below its floor of 10: for tests, whose rules (the
   * throttles, sessions, resets) do not depend on how long one hash takes. An operator's setting cannot reach it.
   */
  bcryptCost?: number;
}

const DEFAULT_SEED_EMAIL = 'admin@example.com';
const REVOCATION_STORE_CHECK_MS = 1_000;
const SIGN_IN_SWEEP_MS = 5 * 60_000;
const SESSION_SWEEP_MS = 60 * 60_000;

/**
 * The auth service: admin accounts, sign-in and tokens. Without Redis its throttles are per process and its
 * revocations go to the process's shared store (all-in-one) or a private in-memory one.
 */
export const authService = defineService({
  name: 'auth',
  config: configSchema,
  migrations: path.join(__dirname, 'data-access/migrations'),
  uses: { kv: true },
  // Auth checks admin tokens against the admin's current row (role, status, pending password change) itself.
  adminGuard: false,
  openapi: authApi.openapi,
  async setup(ctx, options: AuthOptions | undefined): Promise<ServiceParts<AuthExports>> {
    const { config, logger, database, redis } = ctx;
    const keys = await loadSigningKeys({
      privateKeyPem: config.JWT_PRIVATE_KEY,
      previousPublicKeysPem: config.JWT_PREVIOUS_PUBLIC_KEYS,
      dataDir: config.DATA_DIR,
      logger,
    });
    const sessionRules = sessionRulesOf(config);
    const verifier = createJwtVerifier({
      publicKeys: keys.publicKeys,
      issuer: config.JWT_ISSUER,
      audience: config.JWT_AUDIENCE,
      sessionRules,
      logger,
    });
    const kv = ctx.kv ?? createMemoryStore();
    const ownsKv = !ctx.kv;
    const limiter = (keyPrefix: string, points: number) =>
      createRateLimiter({
        store: redis ? 'redis' : 'memory',
        redis,
        keyPrefix,
        points,
        durationSeconds: WINDOW_SECONDS,
        blockDurationSeconds: LOCKOUT_SECONDS,
        logger,
      });
    const bcrypt = createPasswordHasher({
      cost: options?.bcryptCost ?? config.BCRYPT_COST,
      workers: config.BCRYPT_WORKERS,
    });
    // What a burst of guesses costs the CPU, and what the throttles bound: every password compared with a hash.
    const passwordChecks = new Counter({
      name: 'auth_password_checks_total',
      help: 'Passwords compared with a bcrypt hash (sign-ins, current passwords, an unknown e-mail against a dummy hash)',
      registers: [ctx.registry],
    });
    const hasher: PasswordHasher = {
      ...bcrypt,
      compare: (password, hash) => {
        passwordChecks.inc();
        return bcrypt.compare(password, hash);
      },
    };

    const revocations = createDurableRevocations({
      database,
      store: kv,
      tokenLifetimeSeconds: config.JWT_TTL_SECONDS + 60,
      logger,
    });
    // Before the first request: a new all-in-one process, or a Redis that lost its keys while auth was down.
    await revocations.refillWhenLost();
    const publicOrigin = config.PUBLIC_ORIGIN.replace(/\/+$/, '');
    const redirectUri = `${publicOrigin}/api/auth/oidc/callback`;
    const accounts = createAdminAccounts({
      database,
      hasher,
      tokens: createTokenIssuer({
        keys,
        issuer: config.JWT_ISSUER,
        audience: config.JWT_AUDIENCE,
        ttlSeconds: config.JWT_TTL_SECONDS,
        sessionMaxSeconds: sessionRules.maxSessionSeconds,
      }),
      verifier,
      revocations,
      secrets: loadEventSecretBox({ config, logger }),
      throttle: createLoginThrottle({
        account: limiter('login-fail:account', ACCOUNT_FAILURES),
        address: limiter('login-fail:address', ADDRESS_FAILURES),
      }),
      secondFactorThrottle: createLoginThrottle({
        account: limiter('mfa-fail:account', SECOND_FACTOR_FAILURES),
        address: limiter('mfa-fail:address', ADDRESS_FAILURES),
      }),
      ssoRefusalAudits: limiter('sso-refused:address', SSO_REFUSAL_AUDITS),
      sessionRules,
      tokenTtlSeconds: config.JWT_TTL_SECONDS,
      stepUpSeconds: Math.round(config.STEP_UP_MINUTES * 60),
      logger,
      relyingParty: relyingPartyOf(publicOrigin),
      singleSignOn: config.OIDC_ISSUER
        ? {
            provider: createIdentityProvider({
              issuer: config.OIDC_ISSUER,
              clientId: config.OIDC_CLIENT_ID!,
              clientSecret: config.OIDC_CLIENT_SECRET,
              redirectUri,
              logger,
            }),
            displayName: config.OIDC_DISPLAY_NAME,
          }
        : undefined,
    });

    const seededAdmin = await seed(accounts, config, logger);
    await accounts.warmUp();

    return {
      subscriptions: [
        ...auditTrailConsumers(createAuditTrail(database)),
        answerStudentExport('auth', ctx, (tx, student) => studentExportFiles(tx, student.studentId)),
        ...adminAlertConsumers({ handleOnce: ctx.handleOnce, logger }),
      ],
      routes: authApi.routes({ accounts, keys, publicOrigin, redirectUri }),
      // Every verifier waits for the fill mark when the store lost it; this puts it back within a second.
      jobs: [
        every('revocation-store', REVOCATION_STORE_CHECK_MS, () => revocations.refillWhenLost()),
        every('sign-in-sweep', SIGN_IN_SWEEP_MS, () => accounts.sweepSignIns()),
        every('session-sweep', SESSION_SWEEP_MS, () => accounts.sweepSessions()),
        every('mfa-challenge-sweep', SIGN_IN_SWEEP_MS, () => accounts.sweepChallenges()),
      ],
      readiness: () => kv.ping(),
      async stop() {
        await hasher.close();
        if (ownsKv) await kv.close();
      },
      exports: { seededAdmin, verifier, jwks: keys.jwks, accounts },
    };
  },
});

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
  const created = await accounts.seed({
    email: DEFAULT_SEED_EMAIL,
    password,
    name: 'Super Admin',
    mustChangePassword: true,
  });
  if (!created) return undefined;
  // Printed once, on the start that created the account; it is never stored in clear anywhere.
  logger.warn(
    { seededAdmin: { email: DEFAULT_SEED_EMAIL, initialPassword: password } },
    '*** FIRST START: created super admin admin@example.com with a generated initial password, printed only on this start; sign in and change it ***',
  );
  return { email: DEFAULT_SEED_EMAIL, password };
}
