/*
 * The relay between events: woken in-process after each commit that enqueued, it publishes at once; idle, it sends
 * one statement per check; a batch the broker refused is checked again when it falls due, with nobody announcing
 * it; a row nobody announced (another replica died between its commit and its publish) is found by the check.
 */
import { createTestDatabase, eventually } from '@readiness/testing';
import { sql } from 'drizzle-orm';
import { migrate, openDatabase, type Database } from '../db';
import { createLogger } from '../logger';
import { enqueue, kitMigrationsDir, OutboxRelay, type BusMessage, type Publisher } from './index';

jest.setTimeout(30_000);

const logger = createLogger({ name: 'outbox-idle-test', level: 'silent' });

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
const relays: OutboxRelay[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function relay(publisher: Publisher, opts: Partial<ConstructorParameters<typeof OutboxRelay>[0]> = {}) {
  const r = new OutboxRelay({ database, publisher, logger, source: 'outbox-idle-test', ...opts });
  relays.push(r);
  return r;
}

const enqueueOne = (byte: number) =>
  database.transaction((tx) => enqueue(tx, { name: 'a.b.c.v1', payload: new Uint8Array([byte]) }));

/** Statements the relay's database receives over `ms`. */
async function statementsOver(ms: number): Promise<number> {
  const before = statements;
  await sleep(ms);
  return statements - before;
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  database = await openDatabase({ url: testDb.url, logger, onQuery: () => (statements += 1) });
  await migrate(database, [kitMigrationsDir]);
});

afterEach(async () => {
  await Promise.all(relays.splice(0).map((r) => r.stop()));
  await database.execute(sql`DELETE FROM outbox`);
});

afterAll(async () => {
  await database?.close();
  await testDb?.close();
});

it('when idle, then the relay sends one statement per check and nothing between checks', async () => {
  const idle = relay(new RecordingPublisher(), { pollIntervalMs: 500 });
  idle.start();
  await sleep(300);
  // Checks at about 0.5, 1.0, 1.5 and 2.0 s after the first pass: one statement each (no transaction).
  const counted = await statementsOver(2_000);
  expect(counted).toBeGreaterThanOrEqual(3);
  expect(counted).toBeLessThanOrEqual(5);
  await idle.stop();

  // The default check is every 30 s: none falls in 2 s.
  const quiet = relay(new RecordingPublisher());
  quiet.start();
  await sleep(300);
  expect(await statementsOver(2_000)).toBe(0);
});

it('when notified after a commit, then the idle relay publishes at once', async () => {
  const publisher = new RecordingPublisher();
  const r = relay(publisher, { pollIntervalMs: 600_000 });
  r.start();
  await sleep(200);
  const eventId = await enqueueOne(1);
  r.notify();
  await eventually(
    () => publisher.published.some((m) => m.id === eventId),
    'the woken relay to publish',
    3_000,
  );
});

it('when the broker refuses a batch, then the relay checks when it falls due and publishes the retry nobody announces', async () => {
  const publisher = new RecordingPublisher();
  publisher.failures = 1;
  const r = relay(publisher, { pollIntervalMs: 600_000, backoff: { initialMs: 800, maxMs: 800 } });
  r.start();
  await sleep(200);
  const eventId = await enqueueOne(2);
  r.notify();
  await eventually(
    () => publisher.published.some((m) => m.id === eventId),
    'the retry to be published',
    5_000,
  );
  expect(publisher.failures).toBe(0);
});

it('when a row was committed without a notify (a replica that died before its publish), then the check finds it', async () => {
  const publisher = new RecordingPublisher();
  const r = relay(publisher, { pollIntervalMs: 300 });
  r.start();
  await sleep(200);
  const eventId = await enqueueOne(3);
  await eventually(
    () => publisher.published.some((m) => m.id === eventId),
    'the check to find the row',
    3_000,
  );
});
