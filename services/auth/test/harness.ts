import { generateKeyPairSync } from 'node:crypto';
import type { EventName } from '@readiness/contracts';
import { createLogger, type Logger } from '@readiness/kit/logger';
import { createSecretBox, generateEventSecretsKey, type SecretBox } from '@readiness/kit/outbox';
import {
  createAdminPastFirstSignIn,
  startServiceUnderTest,
  type NewAdmin,
  type ServiceUnderTest,
} from '@readiness/testing';
import { authService, type AuthExports } from '../src';
import type { AuthConfig, AuthConfigInput } from '../src/config';

export const ROOT = { email: 'root@example.com', password: 'root-password-1' };

export interface Harness extends ServiceUnderTest<AuthConfig, AuthExports, EventName> {
  privateKeyPem: string;
  /** Opens the sealed secrets of the service's events (same key as the service). */
  secrets: SecretBox;
}

export const logger = createLogger({ name: 'auth-test', level: 'silent' });

/**
 * bcrypt's lowest cost: a hash takes about a millisecond instead of 70 ms (cost 10), and sign-ins, password changes
 * and bursts of wrong passwords are what the tests count, not how long a hash takes.
 */
export const TEST_BCRYPT_COST = 4;

/**
 * The service in-process on port 0, started by the kit's runtime: against a fresh PostgreSQL database, RabbitMQ
 * vhost and Redis prefix (`real`), or on a fresh PostgreSQL database with the in-process defaults (memory bus,
 * memory store). It signs and checks its own tokens.
 */
export async function startAuth(
  kind: 'real' | 'embedded',
  config: Partial<AuthConfigInput> = {},
  serviceLogger: Logger = logger,
  /** The events of the service the test reads back (`h.eventsNamed`). */
  watch: readonly EventName[] = [],
): Promise<Harness> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const eventSecretsKey = config.EVENT_SECRETS_KEY ?? generateEventSecretsKey();
  const h = await startServiceUnderTest(authService, {
    kind,
    config: {
      JWT_PRIVATE_KEY: kind === 'real' ? privateKeyPem : undefined,
      SEED_ADMIN_EMAIL: ROOT.email,
      SEED_ADMIN_PASSWORD: ROOT.password,
      ...config,
      EVENT_SECRETS_KEY: eventSecretsKey,
    },
    redis: true,
    trustTestTokens: false,
    logger: serviceLogger,
    watch,
    options: { bcryptCost: TEST_BCRYPT_COST },
  });
  return Object.assign(h, { privateKeyPem, secrets: createSecretBox(eventSecretsKey) });
}

export interface Reply<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

export function client(base: string) {
  async function call<T = Record<string, unknown>>(
    method: string,
    path: string,
    options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<Reply<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${base}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : {}) as T, headers: res.headers };
  }
  return {
    call,
    async login(email: string, password: string): Promise<string> {
      const res = await call<{ token: string }>('POST', '/api/auth/login', { body: { email, password } });
      if (res.status !== 200)
        throw new Error(`login ${email} answered ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.token;
    },
    /** A new admin past their first sign-in (the password they must change there is already changed to `input.password`). */
    createAdmin: (token: string, input: NewAdmin) => createAdminPastFirstSignIn(base, token, input),
  };
}

let counter = 0;
/** A unique e-mail per call, so tests never share accounts (or their login throttles). */
export const uniqueEmail = (label = 'admin') =>
  `${label}-${Date.now().toString(36)}-${counter++}@example.com`;

/**
 * One auth service for a whole test file, started before its tests and closed after them, with a client and the
 * seeded super admin's token.
 */
export function authForFile(mode: 'real' | 'embedded' = 'real') {
  const running = {} as { h: Harness; api: ReturnType<typeof client>; rootToken: string };
  beforeAll(async () => {
    running.h = await startAuth(mode);
    running.api = client(running.h.url);
    running.rootToken = await running.api.login(ROOT.email, ROOT.password);
  }, 60_000);
  afterAll(async () => {
    await running.h?.close();
  });
  return running;
}

/** An admin the seeded super admin created (named after `label`, password `Right-pass-42`), signed in. */
export async function signedInAdmin(auth: ReturnType<typeof authForFile>, label: string) {
  const email = uniqueEmail(label);
  const password = 'Right-pass-42';
  const admin = await auth.api.createAdmin(auth.rootToken, {
    name: `Admin ${label}`,
    email,
    password,
    role: 'admin',
  });
  return { id: admin._id, email, password, token: await auth.api.login(email, password) };
}
