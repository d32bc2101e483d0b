import {
  createTestDatabase,
  createTestVhost,
  rewriteUrlPort,
  startTcpProxy,
  type TcpProxy,
  type TestDatabase,
  type TestVhost,
  eventually,
} from '@readiness/testing';
import { sql } from 'drizzle-orm';
import { createRabbitBus, type EventBus } from '../bus';
import { migrate, openDatabase, type Database } from '../db';
import { createLogger } from '../logger';
import { enqueue, kitMigrationsDir, OutboxRelay } from './index';

jest.setTimeout(60_000);

const logger = createLogger({ name: 'outbox-messaging-test', level: 'silent' });

describe('outbox relay publishing to RabbitMQ from PostgreSQL', () => {
  let testDb: TestDatabase;
  let vhost: TestVhost;
  let proxy: TcpProxy;
  let database: Database;
  let consumer: EventBus;
  const deliveries = new Map<string, number>();
  const closers: Array<() => Promise<void>> = [];

  async function publisherBus(url: string): Promise<EventBus> {
    const bus = createRabbitBus({
      url,
      service: 'outbox-test',
      logger,
      reconnectDelayMs: { initial: 50, max: 500 },
      publishTimeoutMs: 5_000,
    });
    await bus.start();
    closers.push(() => bus.close());
    return bus;
  }

  function relayOn(db: Database, bus: EventBus, batchSize = 50): OutboxRelay {
    const relay = new OutboxRelay({
      database: db,
      publisher: bus,
      logger,
      source: 'outbox-test',
      batchSize,
      pollIntervalMs: 50,
      backoff: { initialMs: 50, maxMs: 200 },
    });
    closers.unshift(() => relay.stop());
    return relay;
  }

  beforeAll(async () => {
    [testDb, vhost] = await Promise.all([createTestDatabase(), createTestVhost()]);
    database = await openDatabase({ url: testDb.url, logger, name: 'outbox-messaging-test' });
    await migrate(database, [kitMigrationsDir]);
    await database.execute(sql`CREATE TABLE orders (id serial PRIMARY KEY, label text NOT NULL)`);
    const broker = new URL(vhost.url);
    proxy = await startTcpProxy({ host: broker.hostname, port: Number(broker.port || 5672) });

    consumer = createRabbitBus({ url: vhost.url, service: 'outbox-test-consumer', logger });
    await consumer.start();
    await consumer.subscribe({
      queue: 'outbox-test-consumer.count',
      events: ['test.order.placed.v1'],
      handle: async (msg) => {
        deliveries.set(msg.id, (deliveries.get(msg.id) ?? 0) + 1);
      },
    });
  });

  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
    deliveries.clear();
  });

  afterAll(async () => {
    await consumer.close();
    await database.close();
    await proxy.close();
    await Promise.all([testDb.close(), vhost.close()]);
  });

  async function placeOrder(label: string): Promise<string> {
    return database.transaction(async (tx) => {
      await tx.execute(sql`INSERT INTO orders (label) VALUES (${label})`);
      return enqueue(tx, { name: 'test.order.placed.v1', payload: new TextEncoder().encode(label) });
    });
  }

  it('when the broker is unreachable, then writes still succeed and their events are published once it is back', async () => {
    const bus = await publisherBus(rewriteUrlPort(vhost.url, proxy.port));
    const relay = relayOn(database, bus);
    relay.start();

    proxy.cut();
    const ids = [await placeOrder('during outage 1'), await placeOrder('during outage 2')];
    relay.notify();
    const outboxRow = async (id: string) => {
      const [row] = await database.execute<{
        attempts: number;
        sent_at: string | null;
        last_error: string | null;
      }>(sql`SELECT attempts, sent_at, last_error FROM outbox WHERE id = ${id}`);
      return row;
    };
    await eventually(
      async () => ((await outboxRow(ids[0]!))?.attempts ?? 0) >= 1,
      'a failed publish attempt to be recorded',
    );
    expect(deliveries.size).toBe(0);
    const pendingRow = await outboxRow(ids[0]!);
    expect(pendingRow).toMatchObject({ sent_at: null });
    expect(pendingRow!.last_error).toBeTruthy();

    proxy.restore();

    await eventually(
      () => ids.every((id) => deliveries.has(id)),
      'the events to arrive after the broker returned',
    );
    await eventually(async () => (await relay.pending()).count === 0, 'the rows to be marked sent');
    expect(ids.map((id) => deliveries.get(id))).toEqual([1, 1]);
  });

  it('when two relays run at once, then each of 500 events is delivered exactly once', async () => {
    const other = await openDatabase({ url: testDb.url, logger, name: 'outbox-messaging-test-2' });
    closers.push(() => other.close());
    const [busA, busB] = await Promise.all([publisherBus(vhost.url), publisherBus(vhost.url)]);
    const relayA = relayOn(database, busA, 20);
    const relayB = relayOn(other, busB, 20);

    const ids: string[] = [];
    for (let i = 0; i < 50; i++) {
      const batch = await database.transaction(async (tx) => {
        const out: string[] = [];
        for (let j = 0; j < 10; j++) {
          out.push(await enqueue(tx, { name: 'test.order.placed.v1', payload: new Uint8Array([i, j]) }));
        }
        return out;
      });
      ids.push(...batch);
    }
    relayA.start();
    relayB.start();

    await eventually(() => ids.every((id) => deliveries.has(id)), 'all 500 events to be delivered');
    await eventually(async () => (await relayA.pending()).count === 0, 'every row to be marked sent');
    await relayA.stop();
    await relayB.stop();
    // Late duplicates would arrive within a moment of the last publish.
    await new Promise((resolve) => setTimeout(resolve, 300));

    expect(deliveries.size).toBe(500);
    expect([...deliveries.values()].filter((n) => n !== 1)).toEqual([]);
  });
});
