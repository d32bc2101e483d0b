export { createRedis, closeRedis, reconnectDelay, type Redis, type RedisClientOptions } from './redis';
export {
  createRedisStore,
  createMemoryStore,
  createKeyValueStore,
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
  revocationsUnavailable,
  type RevocationList,
  type RevocationListOptions,
} from './revocation-list';
