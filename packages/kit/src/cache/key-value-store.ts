import { AppError } from '../errors';
import type { Logger } from '../logger';
import { closeRedis, createRedis, isRedisDown, type Redis } from './redis';

/**
 * String values with optional expiry: the contract the Redis store and the in-memory store
 * (embedded default) both honour.
 */
export interface KeyValueStore {
  get(key: string): Promise<string | null>;
  /** Several keys in one round trip (MGET); the values in the order of `keys`, null where absent. */
  getMany(keys: readonly string[]): Promise<(string | null)[]>;
  /** Without `ttlSeconds` the value never expires; `set` replaces any earlier expiry. */
  set(key: string, value: string, ttlSeconds?: number): Promise<void>;
  del(key: string): Promise<void>;
  /**
   * Atomically adds one and returns the new value. The expiry is set when the counter has none
   * (first increment), so the counter is a fixed window of `ttlSeconds`. Rejects if the value is
   * not an integer.
   */
  incr(key: string, ttlSeconds: number): Promise<number>;
  exists(key: string): Promise<boolean>;
  /** True when the store answers; never throws (readiness probes). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

function assertTtl(ttlSeconds: number): void {
  if (!Number.isInteger(ttlSeconds) || ttlSeconds <= 0) {
    throw new RangeError(`ttlSeconds must be a positive integer, got ${ttlSeconds}`);
  }
}

// INCR and EXPIRE in one script, so a crash between them cannot leave a counter that never expires.
const INCR_WITH_TTL = `
local value = redis.call('INCR', KEYS[1])
if redis.call('TTL', KEYS[1]) == -1 then
  redis.call('EXPIRE', KEYS[1], ARGV[1])
end
return value`;

type RedisWithIncr = Redis & { kvIncrWithTtl(key: string, ttlSeconds: number): Promise<number> };

export type RedisStoreOptions =
  | { client: Redis }
  | { url: string; keyPrefix: string; logger: Logger; commandTimeoutMs?: number; outageAfterMs?: number };

/**
 * A KeyValueStore on Redis. Given a `client`, the store shares it and `close()` leaves it open;
 * given a `url`, the store owns its connection and `close()` ends it.
 */
export function createRedisStore(options: RedisStoreOptions): KeyValueStore {
  const owned = !('client' in options);
  const client = ('client' in options ? options.client : createRedis(options)) as RedisWithIncr;
  if (typeof client.kvIncrWithTtl !== 'function') {
    client.defineCommand('kvIncrWithTtl', { numberOfKeys: 1, lua: INCR_WITH_TTL });
  }
  const cacheUnavailable = (cause?: unknown) =>
    new AppError('cache_unavailable', 'Cache is temporarily unavailable', 503, { cause });

  /**
   * Runs a command, answering 503 at once during a known outage (rather than after the client's
   * reconnect attempts) and turning connection failures into 503s. Redis's own replies to a bad
   * command (`ReplyError`, e.g. INCR on text) are the caller's mistake and pass through.
   */
  async function command<T>(run: () => Promise<T>): Promise<T> {
    if (isRedisDown(client)) throw cacheUnavailable();
    try {
      return await run();
    } catch (err) {
      if ((err as Error | undefined)?.name === 'ReplyError') throw err;
      throw cacheUnavailable(err);
    }
  }

  return {
    get: (key) => command(() => client.get(key)),
    getMany: (keys) => (keys.length === 0 ? Promise.resolve([]) : command(() => client.mget(...keys))),
    set: (key, value, ttlSeconds) => {
      if (ttlSeconds !== undefined) assertTtl(ttlSeconds);
      return command(async () => {
        if (ttlSeconds === undefined) await client.set(key, value);
        else await client.set(key, value, 'EX', ttlSeconds);
      });
    },
    del: (key) =>
      command(async () => {
        await client.del(key);
      }),
    incr: (key, ttlSeconds) => {
      assertTtl(ttlSeconds);
      return command(async () => Number(await client.kvIncrWithTtl(key, ttlSeconds)));
    },
    exists: (key) => command(async () => (await client.exists(key)) === 1),
    async ping() {
      if (isRedisDown(client)) return false;
      try {
        return (await client.ping()) === 'PONG';
      } catch {
        return false;
      }
    },
    async close() {
      if (owned) await closeRedis(client);
    },
  };
}

interface Entry {
  value: string;
  expiresAt: number | null;
}

const INTEGER = /^-?\d+$/;

/**
 * The embedded default: a KeyValueStore in this process's memory. Expired entries vanish on read
 * and are swept once a minute so an idle key cannot hold memory forever.
 */
export function createMemoryStore(
  options: { now?: () => number; sweepIntervalMs?: number } = {},
): KeyValueStore {
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();

  const live = (key: string): Entry | undefined => {
    const entry = entries.get(key);
    if (entry && entry.expiresAt !== null && entry.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };

  const sweeper = setInterval(() => {
    const t = now();
    for (const [key, entry] of entries) {
      if (entry.expiresAt !== null && entry.expiresAt <= t) entries.delete(key);
    }
  }, options.sweepIntervalMs ?? 60_000);
  sweeper.unref();

  return {
    async get(key) {
      return live(key)?.value ?? null;
    },
    async getMany(keys) {
      return keys.map((key) => live(key)?.value ?? null);
    },
    async set(key, value, ttlSeconds) {
      if (ttlSeconds !== undefined) assertTtl(ttlSeconds);
      entries.set(key, { value, expiresAt: ttlSeconds === undefined ? null : now() + ttlSeconds * 1000 });
    },
    async del(key) {
      entries.delete(key);
    },
    async incr(key, ttlSeconds) {
      assertTtl(ttlSeconds);
      const entry = live(key);
      if (entry && !INTEGER.test(entry.value)) {
        throw new Error('value is not an integer or out of range');
      }
      const value = (entry ? Number(entry.value) : 0) + 1;
      entries.set(key, {
        value: String(value),
        expiresAt: entry?.expiresAt ?? now() + ttlSeconds * 1000,
      });
      return value;
    },
    async exists(key) {
      return live(key) !== undefined;
    },
    async ping() {
      return true;
    },
    async close() {
      clearInterval(sweeper);
      entries.clear();
    },
  };
}
