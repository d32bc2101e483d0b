import { generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import jwt from 'jsonwebtoken';
import { createLogger } from '@readiness/kit/logger';
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
export async function startUpstream(mount: (app: Express) => void): Promise<Upstream> {
  const app = express();
  mount(app);
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
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
      jwt.sign({ role: 'admin', jti: randomUUID(), ...claims }, options.key ?? privateKey, {
        algorithm: 'RS256',
        keyid: kid,
        issuer: 'readiness-auth',
        audience: 'readiness-admin',
        subject: 'admin-1',
        expiresIn: options.expiresInSeconds ?? 900,
      }),
  };
}
