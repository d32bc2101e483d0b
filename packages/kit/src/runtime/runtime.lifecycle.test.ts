import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AdminCreatedSchema, create, encodePayload } from '@readiness/contracts';
import { z } from 'zod';
import { createMemoryBus, type EventBus } from '../bus';
import { serviceEnv, dataServiceEnv } from '../config';
import { migrate, openDatabase } from '../db';
import { createLogger } from '../logger';
import { enqueue, kitMigrationsDir } from '../outbox';
import amqp from 'amqplib';
import { sql } from 'drizzle-orm';
import { Client } from 'pg';
import { createTestDatabase, createTestVhost, eventually } from '@readiness/testing';
import { defineService, on, startService } from './index';

jest.setTimeout(30_000);

const logger = createLogger({ name: 'runtime-test', level: 'silent' });
const migrations = mkdtempSync(path.join(tmpdir(), 'runtime-migrations-'));
afterAll(() => rmSync(migrations, { recursive: true, force: true }));

/** A fresh database on the local PostgreSQL, dropped when the database is closed. */
async function freshDatabase() {
  const testDb = await createTestDatabase();
  const database = await openDatabase({ url: testDb.url, logger });
  return { ...database, close: () => database.close().finally(() => testDb.close()) };
}

const testConfig = { PORT: 0, HOST: '127.0.0.1', NODE_ENV: 'test', LOG_LEVEL: 'silent' };

describe('the service runtime', () => {
  test('when a service of the system consumes from a queue the consumers table lacks, then it refuses to start and says where to add it', async () => {
    const bus = createMemoryBus({ logger });
    await bus.start();
    const careless = defineService({
      name: 'results',
      config: z.object(serviceEnv),
      setup: () => ({
        subscriptions: [
          on('auth.admin.created.v1', { queue: 'results.admin-created', handle: async () => undefined }),
        ],
      }),
    });
    try {
      await expect(startService(careless, { config: testConfig, logger, adapters: { bus } })).rejects.toThrow(
        'queue results.admin-created (auth.admin.created.v1) of results is not in the consumers table of proto/src/consumers.ts',
      );
    } finally {
      await bus.close();
    }
  });

  test('when an event already sits in the outbox at start, then the service’s own subscription receives it, decoded', async () => {
    const database = await freshDatabase();
    const bus = createMemoryBus({ logger });
    await bus.start();
    await migrate(database, [kitMigrationsDir]);
    await database.transaction((tx) =>
      enqueue(tx, {
        name: 'auth.admin.created.v1',
        payload: encodePayload(
          'auth.admin.created.v1',
          create(AdminCreatedSchema, { adminId: randomUUID(), name: 'Ada', email: 'ada@example.edu' }),
        ),
      }),
    );
    const received: string[] = [];
    const module = defineService({
      name: 'echo',
      config: z.object(dataServiceEnv),
      migrations,
      publishes: ['auth.admin.created.v1'],
      setup: async () => {
        // A setup that takes a while (keys, warm-up): a relay running already would publish to nobody meanwhile.
        await new Promise((r) => setTimeout(r, 300));
        return {
          subscriptions: [
            on('auth.admin.created.v1', {
              queue: 'echo.admin-created',
              handle: async (event) => void received.push(event.email),
            }),
          ],
        };
      },
    });
    const service = await startService(module, { config: testConfig, logger, adapters: { database, bus } });
    try {
      const deadline = Date.now() + 10_000;
      while (received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(received).toEqual(['ada@example.edu']);
    } finally {
      await service.stop();
      await bus.close();
      await database.close();
    }
  });

  test('when a request is still running at stop, then it gets SHUTDOWN_GRACE_SECONDS and no more before its connection is cut', async () => {
    const module = defineService({
      name: 'slow',
      config: z.object(serviceEnv),
      setup: () => ({
        routes: (app) => app.get('/api/slow', () => undefined), // never answers
      }),
    });
    const service = await startService(module, {
      config: { ...testConfig, SHUTDOWN_GRACE_SECONDS: 1 },
      logger,
    });
    const request = fetch(`${service.url}/api/slow`).then(
      (res) => res.status,
      () => 'cut',
    );
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    await service.stop();
    const elapsed = Date.now() - started;
    expect(await request).toBe('cut');
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(elapsed).toBeLessThan(3_000);
  });

  test('when the broker is unreachable, then a publisher stays ready (its outbox keeps the events) and a consumer is not', async () => {
    const brokerDown: EventBus = {
      start: async () => undefined,
      subscribe: async () => undefined,
      bindOnDemand: async () => undefined,
      publish: async () => {
        throw new Error('broker unreachable');
      },
      ready: () => false,
      close: async () => undefined,
    };
    const database = await freshDatabase();
    const publisher = defineService({
      name: 'publisher',
      config: z.object(dataServiceEnv),
      migrations,
      publishes: ['auth.admin.created.v1'],
      setup: () => ({}),
    });
    const consumer = defineService({
      name: 'consumer',
      config: z.object(dataServiceEnv),
      migrations,
      bus: true,
      setup: () => ({
        subscriptions: [
          on('auth.admin.created.v1', { queue: 'consumer.admin-created', handle: async () => undefined }),
        ],
      }),
    });
    const adapters = { database, bus: brokerDown };
    const running = [
      await startService(publisher, { config: testConfig, logger, adapters }),
      await startService(consumer, { config: testConfig, logger, adapters }),
    ];
    try {
      const [pub, con] = await Promise.all(
        running.map((s) => fetch(`${s.url}/readyz`).then((r) => r.status)),
      );
      expect({ publisher: pub, consumer: con }).toEqual({ publisher: 200, consumer: 503 });
    } finally {
      for (const s of running) await s.stop();
      await database.close();
    }
  });

  test('when a service declares object storage and no S3_ENDPOINT is set, then it stores and reads objects on the embedded default', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'runtime-s3-'));
    const module = defineService({
      name: 'files',
      config: z.object({ ...serviceEnv, DATA_DIR: z.string(), S3_ENDPOINT: z.string().optional() }),
      uses: { storage: true },
      setup: ({ storage }) => ({
        routes: (app) =>
          app.put('/api/files/:name', async (req, res) => {
            await storage.put(req.params.name, Buffer.from(JSON.stringify(req.body)), {
              contentType: 'application/json',
            });
            res.json(JSON.parse((await storage.getBuffer(req.params.name)).toString()));
          }),
      }),
    });
    const service = await startService(module, { config: { ...testConfig, DATA_DIR: dataDir }, logger });
    try {
      const res = await fetch(`${service.url}/api/files/note`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'kept' }),
      });
      expect(await res.json()).toEqual({ text: 'kept' });
    } finally {
      await service.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
  test('when a service with DATABASE_POOL_MAX=2 gets five slow requests at once, then it holds at most two connections and /metrics counts every statement', async () => {
    const testDb = await createTestDatabase();
    const name = `pooled_${randomUUID().slice(0, 8)}`;
    const module = defineService({
      name,
      config: z.object(dataServiceEnv),
      migrations,
      setup: ({ database }) => ({
        routes: (app) => {
          app.get('/api/slow', async (_req, res) => {
            await database.execute(sql`SELECT pg_sleep(0.3)`);
            res.json({ ok: true });
          });
          app.get('/api/twice', async (_req, res) => {
            await database.transaction(async (tx) => {
              await tx.execute(sql`SELECT 1`);
            });
            res.json({ ok: true });
          });
        },
      }),
    });
    const service = await startService(module, {
      config: { ...testConfig, DATABASE_URL: testDb.url, DATABASE_POOL_MAX: '2' },
      logger,
    });
    const counted = async () => {
      const text = await (await fetch(`${service.internalUrl}/metrics`)).text();
      const line = text.split('\n').find((l) => l.startsWith('db_queries_total{'));
      return Number(line?.split(' ').pop());
    };
    const observer = new Client({ connectionString: testDb.url });
    await observer.connect();
    try {
      const before = await counted();
      const slow = Array.from({ length: 5 }, () => fetch(`${service.url}/api/slow`));
      let most = 0;
      const watching = (async () => {
        for (let i = 0; i < 8; i++) {
          const { rows } = await observer.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1',
            [name],
          );
          most = Math.max(most, rows[0]!.n);
          await new Promise((r) => setTimeout(r, 100));
        }
      })();
      expect((await Promise.all(slow)).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      await watching;
      expect(most).toBe(2);
      // Five single statements, then a transaction of one: BEGIN, the statement, COMMIT.
      expect((await counted()) - before).toBe(5);
      expect((await fetch(`${service.url}/api/twice`)).status).toBe(200);
      expect((await counted()) - before).toBe(8);
      // One metric asked for by name: only its lines (an unknown name is left out), and reading it costs nothing.
      const only = await (
        await fetch(`${service.internalUrl}/metrics?name=db_queries_total&name=no_such_metric`)
      ).text();
      const names = new Set(
        only
          .split('\n')
          .filter((l) => l && !l.startsWith('#'))
          .map((l) => l.split(/[{ ]/)[0]),
      );
      expect([...names]).toEqual(['db_queries_total']);
      expect(only).toContain(`db_queries_total{service="${name}"} ${before + 8}`);
      expect((await counted()) - before).toBe(8);
    } finally {
      await observer.end();
      await service.stop();
      await testDb.close();
    }
  });

  test('when a service’s own RabbitMQ bus dead-letters a malformed message, then its /metrics counts it', async () => {
    const vhost = await createTestVhost();
    const module = defineService({
      name: 'counted',
      config: z.object({ ...serviceEnv, AMQP_URL: z.string() }),
      bus: true,
      setup: () => ({
        subscriptions: [
          on('auth.admin.created.v1', { queue: 'counted.admin-created', handle: async () => undefined }),
        ],
      }),
    });
    const service = await startService(module, { config: { ...testConfig, AMQP_URL: vhost.url }, logger });
    const conn = await amqp.connect(vhost.url);
    try {
      const ch = await conn.createConfirmChannel();
      ch.publish('readiness.events', 'auth.admin.created.v1', Buffer.from('not an envelope'), {
        persistent: true,
      });
      await ch.waitForConfirms();
      const line = await eventually(async () => {
        const text = await (await fetch(`${service.internalUrl}/metrics`)).text();
        return text.split('\n').find((l) => l.startsWith('bus_dead_lettered_total{')) ?? false;
      }, 'the dead-letter counter');
      expect(line).toContain('queue="counted.admin-created"');
      expect(line).toContain('reason="malformed"');
      expect(line).toMatch(/ 1$/);
    } finally {
      await conn.close();
      await service.stop();
      await vhost.close();
    }
  });
});
