import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { ConfigError, dataDirSecret } from '../config';
import type { Logger } from '../logger';

/**
 * Seals the secret fields of events (a temporary password, an invitation link) with AES-256-GCM under a key
 * that the publisher and its consumers share. The rest of the event stays readable for operators; the
 * secret is readable only by a service holding the key, never in the outbox, on the broker or in a `.dlq`.
 */
export interface SecretBox {
  seal(plaintext: string): string;
  /** Throws when the value was not sealed with this key or was altered. */
  open(sealed: string): string;
}

const PREFIX = 'sealed.v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Binds a sealed value to its purpose: a value sealed by another use of the same key does not open here. */
const EVENT_SECRET = 'readiness event secret v1';

export const EVENT_SECRETS_KEY_FILE = 'event-secrets.key';

/** A fresh key in the form EVENT_SECRETS_KEY takes: 32 random bytes, base64. */
export const generateEventSecretsKey = () => randomBytes(32).toString('base64');

function keyBytes(key: string): Buffer {
  const bytes = Buffer.from(key.trim(), 'base64');
  if (bytes.length !== 32) throw new ConfigError('EVENT_SECRETS_KEY must be 32 bytes, base64-encoded');
  return bytes;
}

/**
 * `purpose` names another use of the shared key than events' secret fields (`readiness lti launch ticket v1`): what
 * is sealed for one purpose opens for that purpose only.
 */
export function createSecretBox(key: string, purpose = EVENT_SECRET): SecretBox {
  const secret = keyBytes(key);
  const AAD = Buffer.from(purpose);
  return {
    seal(plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', secret, iv).setAAD(AAD);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    open(sealed) {
      if (!sealed.startsWith(PREFIX)) throw new Error('the value is not a sealed secret');
      const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64url');
      if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('the sealed secret is truncated');
      const decipher = createDecipheriv('aes-256-gcm', secret, raw.subarray(0, IV_BYTES)).setAAD(AAD);
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}

/**
 * The secret box of a service: from EVENT_SECRETS_KEY, which production requires (every replica of the
 * publisher and of each consumer must hold the same key). Elsewhere a key is generated once and kept in
 * `${DATA_DIR}/event-secrets.key`, which every service of `make start` shares.
 */
export function loadEventSecretBox(options: {
  config: { EVENT_SECRETS_KEY?: string; DATA_DIR: string; NODE_ENV: string };
  logger: Logger;
  /** Another purpose than events' secret fields, as `createSecretBox` takes it. */
  purpose?: string;
}): SecretBox {
  const { config, logger, purpose } = options;
  if (config.EVENT_SECRETS_KEY) return createSecretBox(config.EVENT_SECRETS_KEY, purpose);
  if (config.NODE_ENV === 'production') {
    throw new ConfigError(
      'Invalid configuration:\n  EVENT_SECRETS_KEY: is required in production (publisher and consumers share it)',
    );
  }
  const key = dataDirSecret({
    dataDir: config.DATA_DIR,
    file: EVENT_SECRETS_KEY_FILE,
    generate: generateEventSecretsKey,
    what: 'the event secrets key',
    logger,
  });
  return createSecretBox(key, purpose);
}
