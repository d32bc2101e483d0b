import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
  type RateLimiterStoreAbstract,
} from 'rate-limiter-flexible';
import type { Logger } from '../logger';
import { isRedisDown, type Redis } from './redis';

export type RateLimitDecision =
  { allowed: true; remaining: number } | { allowed: false; retryAfterSeconds: number };

export interface RateLimitState {
  consumed: number;
  remaining: number;
  /** True once more than `points` were consumed in the window (and during the block that follows). */
  blocked: boolean;
  /** Seconds until the window (or the block) ends. */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  /**
   * Takes `points` from `key`'s budget. Denied calls still count, so hammering a blocked key
   * keeps it blocked. `retryAfterSeconds` is what a 429's Retry-After header should say.
   */
  consume(key: string, points?: number): Promise<RateLimitDecision>;
  /** The key's state without consuming anything; null when the key has no budget in use. */
  get(key: string): Promise<RateLimitState | null>;
  /** Gives `points` back to `key`'s budget (an attempt that turned out legitimate); does not lift a block. */
  reward(key: string, points?: number): Promise<void>;
  /** Forgets the key (e.g. after a successful login); also lifts a block. */
  reset(key: string): Promise<void>;
}

export interface RateLimiterOptions {
  store: 'redis' | 'memory';
  /** Required with `store: 'redis'`; the client's own key prefix is applied too. */
  redis?: Redis;
  /** Names this limit, e.g. `login:email`; limits with different prefixes never share counters. */
  keyPrefix: string;
  /** Budget per window. */
  points: number;
  durationSeconds: number;
  /** Once the budget is exceeded, the key stays denied this long (0: only until the window ends). */
  blockDurationSeconds?: number;
  /** Logs when Redis fails and the per-process fallback takes over. */
  logger?: Logger;
}

const toSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/**
 * A fixed-window limiter on Redis (shared by every replica) or memory (the embedded default).
 *
 * When Redis fails, the Redis limiter falls back to an in-memory limiter with the same budget:
 * limits then hold per process instead of across replicas. Failing open would let a password
 * guesser through during an outage; failing closed would lock every administrator out.
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  if (!Number.isInteger(options.points) || options.points < 1) {
    throw new RangeError('points must be a positive integer');
  }
  if (!Number.isInteger(options.durationSeconds) || options.durationSeconds < 1) {
    throw new RangeError('durationSeconds must be a positive integer');
  }
  const common = {
    keyPrefix: options.keyPrefix,
    points: options.points,
    duration: options.durationSeconds,
    blockDuration: options.blockDurationSeconds ?? 0,
  };
  const memory = new RateLimiterMemory(common);
  let primary: RateLimiterAbstract | RateLimiterStoreAbstract = memory;
  let fallback: RateLimiterMemory | undefined;
  if (options.store === 'redis') {
    if (!options.redis) throw new Error('A Redis client is required for a Redis rate limiter');
    primary = new RateLimiterRedis({ ...common, storeClient: options.redis });
    fallback = memory;
  }
  const redis = options.redis;
  // While the client is known to be reconnecting, skip the wait for a command that cannot succeed.
  // During the first connect, commands queue and go through once Redis is ready.
  const inOutage = () => redis !== undefined && isRedisDown(redis);

  let degraded = false;
  const onStoreError = (err: unknown) => {
    if (!degraded) {
      degraded = true;
      options.logger?.warn(
        { err, limit: options.keyPrefix },
        'rate limit store failed; limiting per process',
      );
    }
  };
  const onStoreOk = () => {
    if (degraded) {
      degraded = false;
      options.logger?.info({ limit: options.keyPrefix }, 'rate limit store recovered');
    }
  };

  async function run<T>(call: (limiter: RateLimiterAbstract) => Promise<T>): Promise<T> {
    try {
      if (fallback && inOutage()) throw new Error(`redis is ${redis?.status}`);
      const result = await call(primary as RateLimiterAbstract);
      if (fallback) onStoreOk();
      return result;
    } catch (err) {
      if (err instanceof RateLimiterRes || !fallback) throw err;
      onStoreError(err);
      return call(fallback);
    }
  }

  return {
    async consume(key, points = 1) {
      try {
        const res = await run((limiter) => limiter.consume(key, points));
        return { allowed: true, remaining: res.remainingPoints };
      } catch (err) {
        if (err instanceof RateLimiterRes) {
          return { allowed: false, retryAfterSeconds: toSeconds(err.msBeforeNext) };
        }
        throw err;
      }
    },

    async get(key) {
      const res = await run((limiter) => limiter.get(key));
      if (!res) return null;
      return {
        consumed: res.consumedPoints,
        remaining: res.remainingPoints,
        blocked: res.consumedPoints > options.points,
        retryAfterSeconds: toSeconds(res.msBeforeNext),
      };
    },

    async reward(key, points = 1) {
      await run((limiter) => limiter.reward(key, points));
    },

    async reset(key) {
      await run((limiter) => limiter.delete(key));
      // A key may also have counted in the fallback during an outage.
      if (fallback) await fallback.delete(key);
    },
  };
}
