import { randomUUID } from 'node:crypto';
import { AdminCreatedSchema, create, encodePayload } from '@readiness/contracts';
import { capturingLogger, createTestVhost, eventually, type TestVhost } from '@readiness/testing';
import { z } from 'zod';
import { createMemoryBus, createRabbitBus, type BusMessage, type EventBus } from '../bus';
import { createMemoryStore, type KeyValueStore } from '../cache';
import { dataServiceEnv } from '../config';
import { createLogger } from '../logger';
import { defineService, on, startService, STUDENTS_WAITING_KEY, type RunningService } from './index';

jest.setTimeout(30_000);

const logger = createLogger({ name: 'yielding-test', level: 'silent' });
const CHECK_MS = 50;
const EVENT = 'auth.admin.created.v1';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const event = (email: string): BusMessage => ({
  id: randomUUID(),
  name: EVENT,
  occurredAt: new Date(),
  correlationId: randomUUID(),
  payload: encodePayload(EVENT, create(AdminCreatedSchema, { adminId: randomUUID(), name: 'Ada', email })),
});

/** A kv whose reads fail, as Redis does during an outage. */
const failingStore = (): KeyValueStore => ({
  ...createMemoryStore(),
  get: () => Promise.reject(new Error('Cache is temporarily unavailable')),
});

async function yielding(service: RunningService<unknown, unknown>): Promise<number[]> {
  const text = await (await fetch(`${service.internalUrl}/metrics`)).text();
  return [...text.matchAll(/^bus_consumers_yielding\{[^}]*\} (\d+)$/gm)].map((m) => Number(m[1]));
}

describe.each(['in-process', 'RabbitMQ'] as const)('background consumers on the %s bus', (kind) => {
  let vhost: TestVhost | undefined;
  let bus: EventBus;
  let n = 0;
  beforeAll(async () => {
    if (kind === 'RabbitMQ') vhost = await createTestVhost();
  });
  afterAll(() => vhost?.close());
  beforeEach(async () => {
    bus = vhost
      ? createRabbitBus({ url: vhost.url, service: 'yield-test', logger })
      : createMemoryBus({ logger, service: 'yield-test' });
    await bus.start();
  });
  afterEach(() => bus.close());

  /** A service with one background queue and one that never yields, both bound to the same event. */
  async function start(kv: KeyValueStore, options: { gate?: Promise<void>; log?: typeof logger } = {}) {
    n += 1;
    const background: string[] = [];
    const normal: string[] = [];
    const module = defineService({
      name: 'yield-test',
      config: z.object(dataServiceEnv),
      bus: true,
      adminGuard: false,
      uses: { kv: true },
      setup: () => ({
        subscriptions: [
          on(EVENT, {
            queue: `yield-test.mails-${n}`,
            yieldsToStudents: true,
            async handle(e) {
              if (e.email === 'slow@example.edu') await options.gate;
              background.push(e.email);
            },
          }),
          on(EVENT, { queue: `yield-test.alerts-${n}`, handle: async (e) => void normal.push(e.email) }),
        ],
      }),
    });
    const service = await startService(module, {
      config: {
        PORT: 0,
        HOST: '127.0.0.1',
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        BUS_YIELD_CHECK_MS: CHECK_MS,
      },
      logger: options.log ?? logger,
      adapters: { bus },
      shared: { kv },
    });
    return { service, background, normal };
  }

  test('when students wait, then a background consumer finishes what it holds and gets nothing new while another consumer does; when nobody has waited for three reads, then it gets every held message once', async () => {
    const kv = createMemoryStore();
    let open = () => undefined as void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const { logger: log, lines } = capturingLogger('yield-test');
    const { service, background, normal } = await start(kv, { gate, log });
    try {
      // A delivery is being handled when the line forms: it finishes and is acked, never delivered again.
      await bus.publish([event('slow@example.edu')]);
      await eventually(() => normal.length === 1, 'the first event to the other consumer');
      await kv.set(STUDENTS_WAITING_KEY, '311', 5);
      await eventually(async () => expect(await yielding(service)).toEqual([1]), 'the consumer paused');

      const held = Array.from({ length: 5 }, (_, i) => `held-${i}@example.edu`);
      await bus.publish(held.map(event));
      await eventually(() => normal.length === 6, 'the other consumer to get every event');
      open();
      await sleep(CHECK_MS * 6);
      expect(background).toEqual(['slow@example.edu']);

      await kv.del(STUDENTS_WAITING_KEY);
      const cleared = Date.now();
      await eventually(() => background.length === 6, 'the held events', 10_000);
      expect(Date.now() - cleared).toBeGreaterThanOrEqual(CHECK_MS * 2);
      await sleep(CHECK_MS * 6);
      expect([...background].sort()).toEqual(['slow@example.edu', ...held].sort());
      expect(await yielding(service)).toEqual([0]);
      const said = lines.map((l) => JSON.parse(l) as { level: number; msg: string });
      expect(said.filter((l) => l.msg.startsWith('students are waiting'))).toHaveLength(1);
      expect(said.filter((l) => l.msg.startsWith('nobody waits any more'))).toHaveLength(1);
    } finally {
      open();
      await service.stop();
    }
  });

  test('when the waiting room cannot be read, then background work is not held back', async () => {
    const { service, background } = await start(failingStore());
    try {
      await sleep(CHECK_MS * 3);
      await bus.publish([event('while-redis-is-down@example.edu')]);
      await eventually(() => background.length === 1, 'the background consumer to get the event');
      expect(await yielding(service)).toEqual([0]);
    } finally {
      await service.stop();
    }
  });
});
