import { Registry } from 'prom-client';
import pino from 'pino';
import { createMemoryBus } from '../memory';
import { busContract, type BusHarness } from './contract';

const logger = pino({ level: 'silent' });

describe('in-process bus: delivery contract', () => {
  busContract(async ({ maxAttempts, retryDelaysMs }): Promise<BusHarness> => {
    const registry = new Registry();
    const bus = createMemoryBus({ service: 'test', logger, maxAttempts, retryDelaysMs, registry });
    await bus.start();
    return {
      bus,
      registry,
      injectRaw: async (routingKey, body) => bus.injectRaw(routingKey, body),
      deadLetters: async (queue) => bus.deadLetterRecords(queue),
      // In one process a crash loses everything; what remains observable is that an unfinished delivery
      // is not acked and comes back, which is what a handler failing after its effect produces.
      killBeforeAck: async () => {
        throw new Error('consumer killed before the ack');
      },
      close: () => bus.close(),
    };
  });
});
