import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { migrate, type Database, type Tx } from '../db';
import { enqueue, handleOnce, kitMigrationsDir, type FirstSight } from './index';
import { databaseDrivers } from '../db/test/drivers';

jest.setTimeout(30_000);

const drivers = databaseDrivers({ poolMax: 5 });

describe.each(drivers)('handleOnce on %s', (_driver, open) => {
  let database: Database;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    ({ database, cleanup } = await open());
    await migrate(database, [kitMigrationsDir]);
    await database.execute(sql`CREATE TABLE scores (event_id uuid NOT NULL, points integer NOT NULL)`);
  });
  afterAll(() => cleanup());

  async function scoresFor(eventId: string): Promise<number> {
    const [row] = await database.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM scores WHERE event_id = ${eventId}`,
    );
    return row!.n;
  }

  const score = (eventId: string) => (tx: Tx) =>
    tx.execute(sql`INSERT INTO scores (event_id, points) VALUES (${eventId}, 10)`).then(() => 'scored');
  /** A score that announces itself: an event in the effect's transaction. */
  const scoreAndAnnounce = (eventId: string) => async (tx: Tx) => {
    await score(eventId)(tx);
    await enqueue(tx, { name: 'results.scored.v1', payload: new TextEncoder().encode('{}') });
    return 'scored';
  };

  it('when the same event is delivered three times, then its effect happens once and later deliveries are duplicates', async () => {
    const eventId = randomUUID();

    const outcomes = [];
    for (let i = 0; i < 3; i++)
      outcomes.push(await handleOnce(database, 'results.score', eventId, score(eventId)));

    expect(outcomes).toEqual([
      { duplicate: false, result: 'scored' },
      { duplicate: true },
      { duplicate: true },
    ]);
    expect(await scoresFor(eventId)).toBe(1);
  });

  it('when three deliveries of one event are handled concurrently, then its effect happens once', async () => {
    const eventId = randomUUID();

    const outcomes = await Promise.all(
      [1, 2, 3].map(() => handleOnce(database, 'results.score', eventId, score(eventId))),
    );

    expect(outcomes.filter((o) => !o.duplicate)).toHaveLength(1);
    expect(await scoresFor(eventId)).toBe(1);
  });

  it('when an effect that only writes is delivered repeatedly, concurrently, and under another id with the same key, then its writes happen once, in one statement', async () => {
    const eventId = randomUUID();
    const key = randomUUID();
    const writesOnly = (points: number) => ({
      writes: (firstSight: FirstSight) => [
        sql`INSERT INTO scores (event_id, points) SELECT ${eventId}, ${points} WHERE ${firstSight}`,
        sql`INSERT INTO scores (event_id, points) SELECT ${eventId}, ${points + 1} WHERE ${firstSight}`,
      ],
    });
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () => handleOnce(database, 'results.copy', { eventId, key }, writesOnly(5))),
    );
    expect(outcomes.filter((o) => !o.duplicate)).toHaveLength(1);
    expect(await handleOnce(database, 'results.copy', { eventId: randomUUID(), key }, writesOnly(7))).toEqual(
      { duplicate: true },
    );
    expect(await handleOnce(database, 'results.copy', eventId, writesOnly(9))).toEqual({
      duplicate: true,
    });
    const points = await database.execute<{ points: number }>(
      sql`SELECT points FROM scores WHERE event_id = ${eventId} ORDER BY points`,
    );
    expect(points.map((p) => p.points)).toEqual([5, 6]);

    // A write that fails takes the inbox row with it: a redelivery writes.
    const failing = randomUUID();
    await expect(
      handleOnce(database, 'results.copy', failing, {
        writes: (firstSight) => [
          sql`INSERT INTO scores (event_id, points) SELECT ${failing}, 1 WHERE ${firstSight}`,
          sql`INSERT INTO scores (event_id, points) SELECT ${failing}, NULL WHERE ${firstSight}`,
        ],
      }),
    ).rejects.toThrow();
    expect(await scoresFor(failing)).toBe(0);
    expect(
      await handleOnce(database, 'results.copy', failing, {
        writes: (firstSight) => [
          sql`INSERT INTO scores (event_id, points) SELECT ${failing}, 1 WHERE ${firstSight}`,
        ],
      }),
    ).toEqual({ duplicate: false });
    expect(await scoresFor(failing)).toBe(1);
  });

  it('when the effect throws, then nothing is recorded and a redelivery runs the effect', async () => {
    const eventId = randomUUID();

    await expect(
      handleOnce(database, 'results.score', eventId, async (tx) => {
        await score(eventId)(tx);
        throw new Error('downstream rule failed');
      }),
    ).rejects.toThrow('downstream rule failed');
    expect(await scoresFor(eventId)).toBe(0);

    expect(await handleOnce(database, 'results.score', eventId, score(eventId))).toEqual({
      duplicate: false,
      result: 'scored',
    });
    expect(await scoresFor(eventId)).toBe(1);
  });

  it('when two consumers receive the same event, then each runs its own effect once', async () => {
    const eventId = randomUUID();

    const a = await handleOnce(database, 'results.score', eventId, score(eventId));
    const b = await handleOnce(database, 'report.certificate', eventId, score(eventId));

    expect([a.duplicate, b.duplicate]).toEqual([false, false]);
    expect(await scoresFor(eventId)).toBe(2);
  });

  it('when two events with different ids carry the same natural key, then the effect happens once and its event is written once', async () => {
    const attemptId = randomUUID();
    const [first, second] = [randomUUID(), randomUUID()];
    const deliver = (eventId: string) =>
      handleOnce(database, 'results.attempt', { eventId, key: attemptId }, scoreAndAnnounce(attemptId));

    const a = await deliver(first);
    const b = await deliver(second);

    expect(a).toEqual({ duplicate: false, result: 'scored' });
    expect(b).toEqual({ duplicate: true });
    expect(await scoresFor(attemptId)).toBe(1);
    const [events] = await database.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM outbox WHERE name = 'results.scored.v1'`,
    );
    expect(events!.n).toBe(1);
  });
});
