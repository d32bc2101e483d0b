/*
 * The relay woken by PostgreSQL (LISTEN 'outbox', notified by the outbox's insert trigger): an event committed by
 * any connection is published at once without polling, an idle relay sends almost no statements, and losing the
 * listening connection falls back to polling, then listens again.
 */
import { createTestDatabase, eventually } from '@readiness/testing';
import { sql } from 'drizzle-orm';
import { migrate, openDatabase, type Database } from '../db';
import { createLogger } from '../logger';
import { enqueue, kitMigrationsDir, OutboxRelay, type BusMessage, type Publisher } from './index';

jest.setTimeout(30_000);

const logger = createLogger({ name: 'outbox-listen-test', level: 'silent' });
const NAME = 'outbox-listen-test';

class RecordingPublisher implements Publisher {
  readonly published: BusMessage[] = [];
  failures = 0;
  async publish(messages: BusMessage[]): Promise<void> {
    if (this.failures > 0) {
      this.failures -= 1;
      throw new Error('broker away');
    }
    this.published.push(...messages);
  }
}

let testDb: Awaited<ReturnType<typeof createTestDatabase>>;
/** The relay's own database, its statements counted. */
let database: Database;
let statements = 0;
/** Another service replica's connection: it enqueues and never tells the relay. */
let other: Database;
const relays: OutboxRelay[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function relay(publisher: Publisher, opts: Partial<ConstructorParameters<typeof OutboxRelay>[0]> = {}) {
  const r = new OutboxRelay({ database, publisher, logger, source: NAME, ...opts });
  relays.push(r);
  return r;
}

const enqueueElsewhere = (byte: number) =>
  other.transaction((tx) => enqueue(tx, { name: 'a.b.c.v1', payload: new Uint8Array([byte]) }));

/** Statements the relay sends over `ms` once it has settled. */
async function statementsOver(ms: number): Promise<number> {
  const before = statements;
  await sleep(ms);
  return statements - before;
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  database = await openDatabase({ url: testDb.url, logger, name: NAME, onQuery: () => (statements += 1) });
  other = await openDatabase({ url: testDb.url, logger, name: 'other-replica' });
  await migrate(other, [kitMigrationsDir]);
});

afterEach(async () => {
  await Promise.all(relays.splice(0).map((r) => r.stop()));
  await other.execute(sql`DELETE FROM outbox`);
});

afterAll(async () => {
  await database?.close();
  await other?.close();
  await testDb?.close();
});

it('when another connection commits an event, then the listening relay publishes it without polling', async () => {
  const publisher = new RecordingPublisher();
  const r = relay(publisher, { pollIntervalMs: 600_000, idlePollMs: 600_000 });
  r.start();
  await eventually(() => r.isListening, 'the relay to listen');

  const eventId = await enqueueElsewhere(1);

  await eventually(() => publisher.published.some((m) => m.id === eventId), 'the woken relay to publish');
});

it('when idle while listening, then the relay sends no statement between its slow checks, where polling sends several a second', async () => {
  const listening = relay(new RecordingPublisher());
  listening.start();
  await eventually(() => listening.isListening, 'the relay to listen');
  await sleep(300);
  // The default slow check is every 30 s: none falls in 2 s.
  expect(await statementsOver(2_000)).toBe(0);
  await listening.stop();

  // The same measure fails a polling relay: it is not blind.
  const polling = relay(new RecordingPublisher(), { listen: false, pollIntervalMs: 200 });
  polling.start();
  await sleep(300);
  expect(await statementsOver(2_000)).toBeGreaterThanOrEqual(10);
});

it('when the broker refuses a batch, then the listening relay checks when it falls due and publishes the retry nobody announces', async () => {
  const publisher = new RecordingPublisher();
  publisher.failures = 1;
  const r = relay(publisher, { idlePollMs: 600_000, backoff: { initialMs: 800, maxMs: 800 } });
  r.start();
  await eventually(() => r.isListening, 'the relay to listen');

  // Announced, published, refused by the broker: it falls due again in about 0.8 s and no one notifies then.
  const eventId = await enqueueElsewhere(2);
  await eventually(() => publisher.published.some((m) => m.id === eventId), 'the retry to be published');
  expect(publisher.failures).toBe(0);
});

it('when the listening connection is cut, then the relay polls, listens again, and publishes events committed meanwhile', async () => {
  const publisher = new RecordingPublisher();
  const r = relay(publisher, { pollIntervalMs: 200, idlePollMs: 600_000 });
  r.start();
  await eventually(() => r.isListening, 'the relay to listen');

  const [cut] = await other.execute<{ count: number }>(
    sql`SELECT count(pg_terminate_backend(pid))::int AS count FROM pg_stat_activity
         WHERE application_name = ${`${NAME}-listen`} AND datname = current_database()`,
  );
  expect(cut!.count).toBe(1);
  await eventually(() => !r.isListening, 'the relay to notice the cut');

  const meanwhile = await enqueueElsewhere(3);
  await eventually(() => publisher.published.some((m) => m.id === meanwhile), 'the polling relay to publish');

  // Listening again within about 5 s, and woken by PostgreSQL once more.
  await eventually(() => r.isListening, 'the relay to listen again', 12_000);
  const after = await enqueueElsewhere(4);
  await eventually(() => publisher.published.some((m) => m.id === after), 'the listening relay to publish');
});
