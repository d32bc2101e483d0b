import { createTestVhost, type TestVhost } from '@readiness/testing';
import { z } from 'zod';
import { message, names } from '../bus/test/contract';
import { dataServiceEnv, loadConfig } from '../config';
import { createLogger } from '../logger';
import { startServiceBus } from './adapters';

jest.setTimeout(30_000);

const logger = createLogger({ name: 'service-bus-test', level: 'silent' });
const config = z.object(dataServiceEnv);

describe('BUS_RETRY_DELAYS_MS', () => {
  test.each([
    ['1000,5000,25000,120000', [1_000, 5_000, 25_000, 120_000]],
    ['250, 1250', [250, 1_250]],
    ['40', [40]],
  ])('when it is %s, then the waits are %j', (BUS_RETRY_DELAYS_MS, delays) => {
    expect(loadConfig(config, { BUS_RETRY_DELAYS_MS }).BUS_RETRY_DELAYS_MS).toEqual(delays);
  });

  test.each(['0', '-5', 'soon', '1000,,5000', '1.5', '86400001'])(
    'when it is %s, then the service refuses to start and names the variable',
    (BUS_RETRY_DELAYS_MS) => {
      expect(() => loadConfig(config, { BUS_RETRY_DELAYS_MS })).toThrow(/BUS_RETRY_DELAYS_MS/);
    },
  );

  test('when it is unset, then the bus keeps its own delays', () => {
    expect(loadConfig(config, {}).BUS_RETRY_DELAYS_MS).toBeUndefined();
  });
});

describe.each(['in-process', 'RabbitMQ'] as const)('a service bus (%s) given BUS_RETRY_DELAYS_MS', (kind) => {
  let vhost: TestVhost | undefined;
  beforeAll(async () => {
    if (kind === 'RabbitMQ') vhost = await createTestVhost();
  });
  afterAll(() => vhost?.close());

  test('when a delivery fails, then it comes again after the configured wait, well before the default 1 s', async () => {
    const bus = await startServiceBus({
      service: 'retries-test',
      config: { AMQP_URL: vhost?.url, BUS_RETRY_DELAYS_MS: [40] },
      logger,
    });
    try {
      const { event, queue } = names('retry');
      const deliveries: number[] = [];
      let retriedOnce = () => undefined as void;
      const retried = new Promise<void>((resolve) => {
        retriedOnce = resolve;
      });
      await bus.subscribe({
        queue,
        events: [event],
        handle: async () => {
          deliveries.push(Date.now());
          if (deliveries.length === 1) throw new Error('not this time');
          retriedOnce();
        },
      });
      await bus.publish([message(event)]);
      await retried;

      const wait = deliveries[1]! - deliveries[0]!;
      expect(wait).toBeGreaterThanOrEqual(35);
      expect(wait).toBeLessThan(800);
    } finally {
      await bus.close();
    }
  });
});
