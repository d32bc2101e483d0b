export { createRedis, closeRedis, type Redis, type RedisClientOptions } from './redis';
export {
  createRedisStore,
  createMemoryStore,
  type KeyValueStore,
  type RedisStoreOptions,
} from './key-value-store';
export {
  createRateLimiter,
  type RateLimiter,
  type RateLimiterOptions,
  type RateLimitDecision,
  type RateLimitState,
} from './rate-limiter';
export {
  createRevocationList,
  REVOCATIONS_FILLED_KEY,
  type RevocationList,
  type RevocationListOptions,
} from './revocation-list';
