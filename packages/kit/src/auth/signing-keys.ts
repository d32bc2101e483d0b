import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
} from 'node:crypto';
import path from 'node:path';
import { dataDirSecret } from '../config';
import type { Logger } from '../logger';

export interface PublicJwk {
  kty: string;
  n: string;
  e: string;
  kid: string;
  use: 'sig';
  alg: 'RS256';
}

export interface SigningKeys {
  /** Id of the current key; every new token names it in its header. */
  kid: string;
  privateKey: KeyObject;
  /** Current key first, then the retired keys whose tokens are still accepted. */
  publicKeys: Array<{ kid: string; key: KeyObject }>;
  /** The JSON served at `/.well-known/jwks.json`. */
  jwks: { keys: PublicJwk[] };
}

/** RFC 7638 thumbprint: the kid follows from the key itself, so nobody has to configure or keep kids in step. */
function thumbprint(key: KeyObject): string {
  const jwk = key.export({ format: 'jwk' });
  const canonical = JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n });
  return createHash('sha256').update(canonical).digest('base64url');
}

function splitPems(text: string): string[] {
  return text.match(/-----BEGIN [A-Z ]+-----[\s\S]+?-----END [A-Z ]+-----/g) ?? [];
}

function assertRsa(key: KeyObject, what: string): void {
  if (key.asymmetricKeyType !== 'rsa')
    throw new Error(`${what} must be an RSA key (tokens are signed with RS256)`);
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < 2048) throw new Error(`${what} must be at least 2048 bits`);
}

/**
 * The embedded default: one key generated on first start and kept under the data folder (auth's in
 * `${dataDir}/auth/jwt-key.pem`), so tokens survive a restart.
 */
const persistedKey = (dataDir: string, file: string, logger: Logger): KeyObject =>
  createPrivateKey(
    dataDirSecret({
      dataDir,
      file,
      generate: () =>
        generateKeyPairSync('rsa', { modulusLength: 2048 })
          .privateKey.export({ type: 'pkcs8', format: 'pem' })
          .toString(),
      what: 'a token signing key',
      logger,
    }),
  );

/**
 * A service's RS256 signing keys, rotated as auth's admin tokens' keys are: the private key from its setting (a PEM,
 * `\n` allowed for line breaks) or, without one, generated once under the data folder; the public keys of retired
 * keys from another setting, served beside the current one until the tokens they signed have expired.
 */
export async function loadSigningKeys(options: {
  privateKeyPem?: string;
  previousPublicKeysPem?: string;
  dataDir: string;
  logger: Logger;
  /** Under the data folder, where a generated key is kept; auth's by default. */
  file?: string;
  /** The settings' names, for the messages: JWT_PRIVATE_KEY and JWT_PREVIOUS_PUBLIC_KEYS by default. */
  settings?: { privateKey: string; previousPublicKeys: string };
}): Promise<SigningKeys> {
  const settings = options.settings ?? {
    privateKey: 'JWT_PRIVATE_KEY',
    previousPublicKeys: 'JWT_PREVIOUS_PUBLIC_KEYS',
  };
  const privateKey = options.privateKeyPem
    ? createPrivateKey(options.privateKeyPem.replace(/\\n/g, '\n'))
    : persistedKey(options.dataDir, options.file ?? path.join('auth', 'jwt-key.pem'), options.logger);
  assertRsa(privateKey, settings.privateKey);
  const current = createPublicKey(privateKey);
  const kid = thumbprint(current);
  const publicKeys = [{ kid, key: current }];
  for (const pem of splitPems((options.previousPublicKeysPem ?? '').replace(/\\n/g, '\n'))) {
    const key = createPublicKey(pem);
    assertRsa(key, settings.previousPublicKeys);
    const previousKid = thumbprint(key);
    if (!publicKeys.some((k) => k.kid === previousKid)) publicKeys.push({ kid: previousKid, key });
  }
  const jwks = {
    keys: publicKeys.map(({ kid: keyId, key }) => {
      const jwk = key.export({ format: 'jwk' });
      return {
        kty: jwk.kty as string,
        n: jwk.n as string,
        e: jwk.e as string,
        kid: keyId,
        use: 'sig' as const,
        alg: 'RS256' as const,
      };
    }),
  };
  return { kid, privateKey, publicKeys, jwks };
}
