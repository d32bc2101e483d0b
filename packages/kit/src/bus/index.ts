/**
 * The event bus of the service kit: one delivery contract (per-handler queues, at-least-once delivery,
 * manual ack after the handler resolves, bounded retries with backoff, dead-letter queue, malformed
 * messages dead-lettered at once), two implementations: RabbitMQ for production and the local stack,
 * and an in-process bus as the embedded default of the all-in-one run.
 */
export type {
  BusMessage,
  Publisher,
  HandlerContext,
  Subscription,
  EventBus,
  BusOptions,
  RabbitBusOptions,
  MemoryBusOptions,
  DeadLetter,
} from './types';
export {
  DEFAULT_ACK_WINDOW_MS,
  DEFAULT_EXCHANGE,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_PREFETCH,
  DEFAULT_RETRY_DELAYS_MS,
  DEFAULT_WAIT_HORIZON_MS,
} from './types';
export { createRabbitBus, queueTopology, unroutedQueueName, HEADERS, CONTENT_TYPE } from './rabbit';
export { createMemoryBus, type MemoryBus } from './memory';
export { topicMatches } from './delivery';
