/*
 * The relay between events: handed the rows of each commit of its process, it publishes them at once and marks
 * them without looking for them; idle, it sends one statement per check; a batch the broker refused is checked
 * again when it falls due, with nobody announcing it; a row nobody handed over (another process wrote it, or died
 * between its commit and its publish) is found by the check.
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

it('when a commit wrote an event, then the idle relay publishes it at once', async () => {
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

it('when a row was committed by a process without a running relay, then the check finds it', async () => {
  const publisher = new RecordingPublisher();
  const r = relay(publisher, { pollIntervalMs: 300 });
  r.start();
  await sleep(200);
  // Another process (no relay of its own, or one stopping): nothing hands the row over, it is due at once.
  const writer = await openDatabase({ url: testDb.url, logger });
  const eventId = await writer
    .transaction((tx) => enqueue(tx, { name: 'a.b.c.v1', payload: new Uint8Array([3]) }))
    .finally(() => writer.close());
  await eventually(
    () => publisher.published.some((m) => m.id === eventId),
    'the check to find the row',
    3_000,
  );
});

it('when commits write events, then the running relay publishes them without looking for them: one mark for those gathered, no claim', async () => {
  const publisher = new RecordingPublisher();
  // A gathering time long enough for three commits made at once to fall in it on a loaded machine (at 50 ms, a
  // busy one split them into two marks).
  const r = relay(publisher, { pollIntervalMs: 600_000, handoffBatchMs: 1_000 });
  r.start();
  await sleep(200);
  const observer = await openDatabase({ url: testDb.url, logger });
  try {
    const before = statements;
    // Three commits within the gathering time: BEGIN, INSERT, COMMIT each, then one publish and one mark.
    const ids = await Promise.all([enqueueOne(4), enqueueOne(5), enqueueOne(6)]);
    const list = sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    );
    await eventually(
      async () =>
        (
          await observer.execute<{ n: number }>(
            sql`SELECT count(*)::int AS n FROM outbox WHERE id IN (${list}) AND sent_at IS NOT NULL`,
          )
        )[0]!.n === 3,
      'the handed events published and marked sent',
      5_000,
    );
    await sleep(300);
    const [marked] = await observer.execute<{ n: number }>(
      sql`SELECT count(DISTINCT sent_at)::int AS n FROM outbox WHERE id IN (${list})`,
    );
    // One mark per gathering: one on a machine at ease; a machine too busy to make the three commits within the
    // gathering time splits them, each part marked once. Beyond the commits and the marks, not one statement: the
    // relay never looked for the rows or claimed them.
    expect(marked!.n).toBeGreaterThanOrEqual(1);
    expect(marked!.n).toBeLessThanOrEqual(3);
    expect(statements - before).toBe(9 + marked!.n);
    expect(publisher.published.map((m) => m.id).sort()).toEqual([...ids].sort());
  } finally {
    await observer.close();
  }
});

it('when a transaction that wrote an event rolls back, then nothing is handed to the relay or published', async () => {
  const publisher = new RecordingPublisher();
  const r = relay(publisher, { pollIntervalMs: 300, handoffBatchMs: 1 });
  r.start();
  await sleep(100);
  await expect(
    database.transaction(async (tx) => {
      await enqueue(tx, { name: 'a.b.c.v1', payload: new Uint8Array([7]) });
      throw new Error('the change failed');
    }),
  ).rejects.toThrow('the change failed');
  await sleep(700);
  expect(publisher.published).toEqual([]);
  expect(await database.execute(sql`SELECT id FROM outbox`)).toEqual([]);
});

it('when a process dies between its commit and its publish, then its held event is published by another replica once the hold runs out, with the same id', async () => {
  // This replica's broker round trip never ends: it died in it.
  const dying = relay(
    { publish: () => new Promise<void>(() => undefined) },
    {
      claimMs: 1_000,
      publishTimeoutMs: 3_000,
      pollIntervalMs: 600_000,
      handoffBatchMs: 1,
    },
  );
  dying.start();
  const other = await openDatabase({ url: testDb.url, logger });
  try {
    const publisher = new RecordingPublisher();
    const survivor = new OutboxRelay({
      database: other,
      publisher,
      logger,
      source: 'outbox-idle-test',
      pollIntervalMs: 200,
    });
    survivor.start();
    try {
      const written = Date.now();
      const eventId = await enqueueOne(8);
      await sleep(600);
      expect(publisher.published).toEqual([]);
      await eventually(
        () => publisher.published.some((m) => m.id === eventId),
        'the other replica to publish the held event',
        5_000,
      );
      expect(Date.now() - written).toBeGreaterThanOrEqual(1_000);
      expect(publisher.published.filter((m) => m.id === eventId)).toHaveLength(1);
    } finally {
      await survivor.stop();
    }
  } finally {
    await other.close();
  }
});
