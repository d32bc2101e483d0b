import { Redis } from 'ioredis';
import type { Logger } from '../logger';

export type { Redis } from 'ioredis';

export interface RedisClientOptions {
  /**
   * Sends the commands issued in one turn of the event loop in one write: fewer system calls on a hot path with
   * many concurrent requests (the gateway's rate limit and revocation check).
   */
  autoPipelining?: boolean;
  /** `redis://[:password@]host:port[/db]` or `rediss://…` for TLS. */
  url: string;
  /** Prepended to every key, e.g. `readiness:auth:`; keeps services apart in one Redis. */
  keyPrefix: string;
  logger: Logger;
  /** A command without a reply after this long fails instead of hanging a request. */
  commandTimeoutMs?: number;
}

/** Reconnect delay: doubles from 100 ms, capped at 5 s, with jitter so replicas do not reconnect in step. */
function reconnectDelay(attempt: number): number {
  return Math.min(100 * 2 ** Math.min(attempt, 10), 5000) + Math.floor(Math.random() * 100);
}

/**
 * An ioredis client that fails fast while Redis is down instead of queueing forever, keeps
 * reconnecting in the background, and logs an outage once (not on every reconnect attempt).
 */
export function createRedis(options: RedisClientOptions): Redis {
  const { logger } = options;
  const client = new Redis(options.url, {
    keyPrefix: options.keyPrefix,
    retryStrategy: reconnectDelay,
    // Commands queued while disconnected fail after two reconnect attempts (well under a second
    // when the port refuses), so a request gets a 503 instead of waiting on a dead Redis.
    maxRetriesPerRequest: 2,
    // Queueing stays on so commands sent during the first connect are not lost.
    enableOfflineQueue: true,
    commandTimeout: options.commandTimeoutMs ?? 2000,
    connectTimeout: 5000,
    // How long a closing socket may linger before it is destroyed; short, so shutdown is not held up.
    disconnectTimeout: 500,
    enableAutoPipelining: options.autoPipelining ?? false,
  });
  let healthy = true;
  client.on('error', (err: Error) => {
    if (!healthy) return;
    healthy = false;
    logger.error({ err }, 'redis connection failed; retrying in the background');
  });
  client.on('ready', () => {
    if (healthy) return;
    healthy = true;
    logger.info('redis connection restored');
  });
  return client;
}

/**
 * True while the client is known to be cut off from Redis (after a connection was lost or failed).
 * Callers fail fast then instead of queueing behind reconnect attempts whose delays grow.
 */
export function isRedisDown(client: Redis): boolean {
  return client.status === 'reconnecting' || client.status === 'close' || client.status === 'end';
}

/** Closes a client politely when connected and immediately otherwise (QUIT would wait on a dead server). */
export async function closeRedis(client: Redis): Promise<void> {
  if (client.status === 'end') return;
  if (client.status === 'ready') {
    try {
      await client.quit();
      return;
    } catch {
      // Fall through to a hard disconnect.
    }
  }
  client.disconnect(false);
}
