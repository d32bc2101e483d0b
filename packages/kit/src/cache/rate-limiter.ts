import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
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
 * The per-process limiter that stands in while Redis fails (rate-limiter-flexible's insurance limiter): the
 * first call it takes after the store worked is logged, and the store's recovery once it is back.
 */
class InsuranceLimiter extends RateLimiterMemory {
  private degraded = false;

  constructor(
    options: ConstructorParameters<typeof RateLimiterMemory>[0],
    private readonly onDegraded: () => void,
  ) {
    super(options);
  }

  private taking() {
    if (this.degraded) return;
    this.degraded = true;
    this.onDegraded();
  }

  recovered(): boolean {
    const was = this.degraded;
    this.degraded = false;
    return was;
  }

  override consume(...args: Parameters<RateLimiterMemory['consume']>) {
    this.taking();
    return super.consume(...args);
  }

  override get(...args: Parameters<RateLimiterMemory['get']>) {
    this.taking();
    return super.get(...args);
  }

  override reward(...args: Parameters<RateLimiterMemory['reward']>) {
    this.taking();
    return super.reward(...args);
  }
}

/**
 * While the client is known to be reconnecting, the insurance answers at once instead of a command waiting on a
 * dead server; during the first connect, commands queue and go through once Redis is ready (the library's own
 * `rejectIfRedisNotReady` would send those to the insurance too, and the two would count apart).
 */
class OutageAwareRedisLimiter extends RateLimiterRedis {
  _isRedisReady(): boolean {
    return !isRedisDown((this as unknown as { client: Redis }).client);
  }
}

/**
 * A fixed-window limiter on Redis (shared by every replica) or memory (the embedded default).
 *
 * When Redis fails (or is not ready), the Redis limiter answers from its insurance limiter, in memory with the
 * same budget: limits then hold per process instead of across replicas. Failing open would let a password
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
  let limiter: RateLimiterAbstract = new RateLimiterMemory(common);
  let insurance: InsuranceLimiter | undefined;
  if (options.store === 'redis') {
    const redis = options.redis;
    if (!redis) throw new Error('A Redis client is required for a Redis rate limiter');
    const fallback = new InsuranceLimiter(common, () =>
      options.logger?.warn(
        { limit: options.keyPrefix },
        'rate limit store not reachable; limiting per process',
      ),
    );
    insurance = fallback;
    redis.on('ready', () => {
      if (fallback.recovered())
        options.logger?.info({ limit: options.keyPrefix }, 'rate limit store recovered');
    });
    limiter = new OutageAwareRedisLimiter({
      ...common,
      storeClient: redis,
      insuranceLimiter: fallback,
      rejectIfRedisNotReady: true,
    });
  }

  return {
    async consume(key, points = 1) {
      try {
        const res = await limiter.consume(key, points);
        return { allowed: true, remaining: res.remainingPoints };
      } catch (err) {
        if (err instanceof RateLimiterRes) {
          return { allowed: false, retryAfterSeconds: toSeconds(err.msBeforeNext) };
        }
        throw err;
      }
    },

    async get(key) {
      const res = await limiter.get(key);
      if (!res) return null;
      return {
        consumed: res.consumedPoints,
        remaining: res.remainingPoints,
        blocked: res.consumedPoints > options.points,
        retryAfterSeconds: toSeconds(res.msBeforeNext),
      };
    },

    async reward(key, points = 1) {
      await limiter.reward(key, points);
    },

    async reset(key) {
      await limiter.delete(key);
      // A key may also have counted in the insurance during an outage.
      await insurance?.delete(key);
    },
  };
}
