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
export { createRevocationList, type RevocationList } from './revocation-list';
