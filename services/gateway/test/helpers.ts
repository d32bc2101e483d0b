import { generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express, { type Express } from 'express';
import { authService, type AuthConfig, type AuthExports } from '@readiness/auth';
import { createMemoryBus } from '@readiness/kit/bus';
import type { KeyValueStore } from '@readiness/kit/cache';
import { openDatabase } from '@readiness/kit/db';
import { createLogger } from '@readiness/kit/logger';
import { startService, type RunningService } from '@readiness/kit/runtime';
import { createTestDatabase, signTestJwt } from '@readiness/testing';
import { configSchema, type GatewayConfig } from '../src/config';

export const silentLogger = createLogger({ name: 'gateway-test', level: 'silent' });

export function gatewayConfig(env: Record<string, string | undefined>): GatewayConfig {
  return configSchema.parse({ PORT: '0', HOST: '127.0.0.1', ...env });
}

export interface Upstream {
  url: string;
  app: Express;
  close(): Promise<void>;
}

/** A small real HTTP service standing in for an upstream the test does not need in full. */
export async function startUpstream(mount: (app: Express) => void, port = 0): Promise<Upstream> {
  const app = express();
  mount(app);
  const server = app.listen(port, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    app,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** An auth stand-in that publishes `signer`'s keys at /.well-known/jwks.json, and answers whatever `mount` adds. */
export function startJwksUpstream(
  signer: Signer,
  mount: (app: Express) => void = () => undefined,
): Promise<Upstream> {
  return startUpstream((app) => {
    app.get('/.well-known/jwks.json', (_req, res) => {
      res.json(signer.jwks);
    });
    mount(app);
  });
}

export interface Signer {
  kid: string;
  jwks: { keys: unknown[] };
  token(claims?: Record<string, unknown>, options?: { expiresInSeconds?: number; key?: KeyObject }): string;
}

/** Signs admin tokens the way the auth service does (RS256, kid, issuer, audience). */
export function createSigner(): Signer {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = randomUUID();
  return {
    kid,
    jwks: { keys: [{ ...publicKey.export({ format: 'jwk' }), kid, use: 'sig', alg: 'RS256' }] },
    token: (claims = {}, options = {}) =>
      signTestJwt({ role: 'admin', jti: randomUUID(), ...claims }, options.key ?? privateKey, {
        kid,
        issuer: 'readiness-auth',
        audience: 'readiness-admin',
        subject: 'admin-1',
        expiresIn: options.expiresInSeconds ?? 900,
      }),
  };
}

export const ROOT_ADMIN = { email: 'root@example.edu', password: 'root-password-1' };

export interface EmbeddedAuth {
  auth: RunningService<AuthConfig, AuthExports>;
  /** Signs the seeded super admin in through `baseUrl` (the gateway) and returns the token. */
  signIn(baseUrl: string): Promise<string>;
  close(): Promise<void>;
}

/** The real auth service on a fresh PostgreSQL database and the memory bus, seeded with ROOT_ADMIN. */
export async function startEmbeddedAuth(
  options: { kv?: KeyValueStore; config?: Record<string, string> } = {},
): Promise<EmbeddedAuth> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-auth-'));
  const testDb = await createTestDatabase();
  const database = await openDatabase({ url: testDb.url, logger: silentLogger });
  const bus = createMemoryBus({ logger: silentLogger, service: 'auth' });
  await bus.start();
  const auth = await startService(authService, {
    config: {
      PORT: 0,
      HOST: '127.0.0.1',
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      SEED_ADMIN_EMAIL: ROOT_ADMIN.email,
      SEED_ADMIN_PASSWORD: ROOT_ADMIN.password,
      ...options.config,
    },
    logger: silentLogger,
    adapters: { database, bus },
    shared: { kv: options.kv },
    // bcrypt's lowest cost: the gateway's tests sign in, they do not time a hash.
    options: { bcryptCost: 4 },
  });
  return {
    auth,
    async signIn(baseUrl) {
      const login = await fetch(`${baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(ROOT_ADMIN),
      });
      if (login.status !== 200) throw new Error(`sign-in answered ${login.status}`);
      return ((await login.json()) as { token: string }).token;
    },
    async close() {
      await auth.stop();
      await bus.close();
      await database.close();
      await testDb.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
