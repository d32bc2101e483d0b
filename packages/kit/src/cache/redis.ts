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
  /**
   * How long Redis must stay unreachable before the outage is logged at error (default 5 s); a connection that
   * fails and is back before then is logged at warning.
   */
  outageAfterMs?: number;
}

/** Reconnect delay: doubles from 100 ms, capped at 5 s, with jitter so replicas do not reconnect in step. */
function reconnectDelay(attempt: number): number {
  return Math.min(100 * 2 ** Math.min(attempt, 10), 5000) + Math.floor(Math.random() * 100);
}

/**
 * An ioredis client that fails fast while Redis is down instead of queueing forever, keeps
 * reconnecting in the background, and logs an outage once (not on every reconnect attempt).
 *
 * A failed connection is logged at warning and the outage at error only when Redis is still unreachable after
 * `outageAfterMs`: a connection's first commands (HELLO, SELECT, INFO) time out on the process's own timers, so a
 * process that keeps its event loop busy for longer than the command timeout while they are in flight (a service
 * loading its fonts at start on a loaded machine) sees them time out although Redis answered at once, and the
 * client's next attempt connects.
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
  const outageAfterMs = options.outageAfterMs ?? 5000;
  let healthy = true;
  let outage: NodeJS.Timeout | undefined;
  client.on('error', (err: Error) => {
    if (!healthy) return;
    healthy = false;
    logger.warn({ err }, 'redis connection failed; retrying in the background');
    outage = setTimeout(() => {
      outage = undefined;
      if (client.status === 'end') return;
      logger.error({ err, seconds: outageAfterMs / 1000 }, 'redis unreachable; retrying in the background');
    }, outageAfterMs);
    outage.unref();
  });
  const settled = () => {
    clearTimeout(outage);
    outage = undefined;
  };
  client.on('ready', () => {
    if (healthy) return;
    healthy = true;
    settled();
    logger.info('redis connection restored');
  });
  // A client closed during an outage has nothing left to report.
  client.on('end', settled);
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
