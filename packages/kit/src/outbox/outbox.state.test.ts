import { randomUUID } from 'node:crypto';
import { eventually } from '@readiness/testing';
import { sql } from 'drizzle-orm';
import { Registry } from 'prom-client';
import { migrate, type Database } from '../db';
import { createLogger, requestContext } from '../logger';
import {
  enqueue,
  enqueueWith,
  kitMigrationsDir,
  OutboxRelay,
  type BusMessage,
  type Publisher,
} from './index';
import { databaseDrivers } from '../db/test/drivers';

jest.setTimeout(30_000);

const logger = createLogger({ name: 'outbox-test', level: 'silent' });

/** Where the broker is irrelevant: records what a confirmed publish would have delivered, or fails on demand. */
class RecordingPublisher implements Publisher {
  readonly published: BusMessage[] = [];
  failWith: Error | undefined;
  gate: Promise<void> | undefined;
  calls = 0;
  async publish(messages: BusMessage[]): Promise<void> {
    this.calls++;
    if (this.gate) await this.gate;
    if (this.failWith) throw this.failWith;
    this.published.push(...messages);
  }
}

const drivers = databaseDrivers();

describe.each(drivers)('outbox on %s', (_driver, open) => {
  let database: Database;
  let cleanup: () => Promise<void>;
  const relays: OutboxRelay[] = [];

  function relay(publisher: Publisher, opts: Partial<ConstructorParameters<typeof OutboxRelay>[0]> = {}) {
    const r = new OutboxRelay({ database, publisher, logger, source: 'outbox-test', ...opts });
    relays.push(r);
    return r;
  }

  async function row(id: string) {
    const [found] = await database.execute<{
      sentAt: string | null;
      attempts: number;
      lastError: string | null;
      nextAttemptAt: string;
      payload: Buffer;
    }>(
      sql`SELECT sent_at AS "sentAt", attempts, last_error AS "lastError", next_attempt_at AS "nextAttemptAt", payload
          FROM outbox WHERE id = ${id}`,
    );
    return (
      found && {
        ...found,
        sentAt: found.sentAt === null ? null : new Date(found.sentAt),
        nextAttemptAt: new Date(found.nextAttemptAt),
      }
    );
  }

  beforeAll(async () => {
    ({ database, cleanup } = await open());
    await migrate(database, [kitMigrationsDir]);
    await database.execute(sql`CREATE TABLE accounts (id text PRIMARY KEY, balance integer NOT NULL)`);
  });

  afterEach(async () => {
    await Promise.all(relays.splice(0).map((r) => r.stop()));
    await database.execute(sql`DELETE FROM outbox`);
  });

  afterAll(() => cleanup());

  it('when the state change commits, then its event is published with the id, name, payload and correlation id', async () => {
    const publisher = new RecordingPublisher();
    const accountId = randomUUID();

    const eventId = await requestContext.run({ requestId: 'req-1', correlationId: 'corr-1' }, () =>
      database.transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO accounts (id, balance) VALUES (${accountId}, 10)`);
        return enqueue(tx, { name: 'bank.account.opened.v1', payload: new Uint8Array([1, 2, 3]) });
      }),
    );
    const count = await relay(publisher).relayOnce();

    expect(count).toBe(1);
    expect(publisher.published).toEqual([
      expect.objectContaining({
        id: eventId,
        name: 'bank.account.opened.v1',
        correlationId: 'corr-1',
        source: 'outbox-test',
        occurredAt: expect.any(Date),
      }),
    ]);
    expect([...publisher.published[0]!.payload]).toEqual([1, 2, 3]);
    // Sent: the metadata stays for inspection, the payload (it may hold a temporary password) does not.
    expect(await row(eventId)).toMatchObject({ sentAt: expect.any(Date), attempts: 0 });
    expect((await row(eventId))!.payload).toHaveLength(0);
    expect(await relay(publisher).relayOnce()).toBe(0);
  });

  it('when the transaction rolls back, then neither the state change nor the event exists', async () => {
    const publisher = new RecordingPublisher();
    const accountId = randomUUID();
    let eventId = '';

    await expect(
      database.transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO accounts (id, balance) VALUES (${accountId}, 10)`);
        eventId = await enqueue(tx, { name: 'bank.account.opened.v1', payload: new Uint8Array([1]) });
        throw new Error('validation failed after the write');
      }),
    ).rejects.toThrow('validation failed');

    expect(await relay(publisher).relayOnce()).toBe(0);
    expect(publisher.published).toEqual([]);
    expect(await row(eventId)).toBeUndefined();
    expect(await database.execute(sql`SELECT * FROM accounts WHERE id = ${accountId}`)).toEqual([]);
  });

  it('when a state change and its event are written in one statement, then the event exists only if the change touched a row, and a failing event undoes the change', async () => {
    const publisher = new RecordingPublisher();
    const accountId = randomUUID();
    await database.execute(sql`INSERT INTO accounts (id, balance) VALUES (${accountId}, 10)`);
    const withdraw = (amount: number) =>
      sql`UPDATE accounts SET balance = balance - ${amount} WHERE id = ${accountId} AND balance >= ${amount}
          RETURNING id`;
    const balance = async () =>
      (
        await database.execute<{ balance: number }>(sql`SELECT balance FROM accounts WHERE id = ${accountId}`)
      )[0]!.balance;

    const eventId = await requestContext.run({ requestId: 'req-2', correlationId: 'corr-2' }, () =>
      enqueueWith(database.db, withdraw(7), {
        name: 'bank.withdrawn.v1',
        payload: new Uint8Array([7, 0, 255]),
      }),
    );
    expect(eventId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await balance()).toBe(3);

    // Nothing to withdraw: the UPDATE touches no row, so no event.
    expect(
      await enqueueWith(database.db, withdraw(7), {
        name: 'bank.withdrawn.v1',
        payload: new Uint8Array([7]),
      }),
    ).toBeUndefined();
    expect(await balance()).toBe(3);

    // The event cannot be written (its id is taken): the withdrawal is undone with it.
    await expect(
      enqueueWith(database.db, withdraw(1), {
        id: eventId!,
        name: 'bank.withdrawn.v1',
        payload: new Uint8Array([1]),
      }),
    ).rejects.toThrow();
    expect(await balance()).toBe(3);

    expect(await relay(publisher).relayOnce()).toBe(1);
    expect(publisher.published).toEqual([
      expect.objectContaining({ id: eventId, name: 'bank.withdrawn.v1', correlationId: 'corr-2' }),
    ]);
    expect([...publisher.published[0]!.payload]).toEqual([7, 0, 255]);
  });

  it('when a change has writes alongside it, then they happen with the change and its event, or not at all', async () => {
    const [from, to] = [randomUUID(), randomUUID()];
    await database.execute(sql`INSERT INTO accounts (id, balance) VALUES (${from}, 10), (${to}, 0)`);
    const transfer = (amount: number) =>
      enqueueWith(
        database.db,
        sql`UPDATE accounts SET balance = balance - ${amount} WHERE id = ${from} AND balance >= ${amount}
            RETURNING id`,
        { name: 'bank.transferred.v1', payload: new Uint8Array([amount]) },
        (changed) => [sql`UPDATE accounts SET balance = balance + ${amount} WHERE id = ${to} AND ${changed}`],
      );
    const balances = async () =>
      (
        await database.execute<{ id: string; balance: number }>(
          sql`SELECT id, balance FROM accounts WHERE id IN (${from}, ${to})`,
        )
      ).reduce((all, r) => ({ ...all, [r.id === from ? 'from' : 'to']: r.balance }), {});

    expect(await transfer(6)).toMatch(/^[0-9a-f-]{36}$/);
    expect(await balances()).toEqual({ from: 4, to: 6 });
    expect(await transfer(6)).toBeUndefined();
    expect(await balances()).toEqual({ from: 4, to: 6 });
    const [events] = await database.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM outbox WHERE name = 'bank.transferred.v1'`,
    );
    expect(events!.n).toBe(1);
  });

  it('when the publish fails, then the row stays pending with attempts, error and a later retry time, and is republished with the same id', async () => {
    const publisher = new RecordingPublisher();
    publisher.failWith = new Error('channel closed by broker');
    const eventId = await database.transaction((tx) =>
      enqueue(tx, { name: 'bank.account.closed.v1', payload: new Uint8Array([9]) }),
    );
    const r = relay(publisher, { backoff: { initialMs: 60_000, maxMs: 120_000 } });

    expect(await r.relayOnce()).toBe(0);

    const pending = await row(eventId);
    expect(pending).toMatchObject({ sentAt: null, attempts: 1, lastError: 'channel closed by broker' });
    expect(pending!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 30_000);
    expect([...pending!.payload]).toEqual([9]);
    // Not due yet: the relay leaves it alone instead of hammering a failing broker.
    expect(await r.relayOnce()).toBe(0);
    expect(publisher.calls).toBe(1);

    publisher.failWith = undefined;
    await database.execute(
      sql`UPDATE outbox SET next_attempt_at = now() - interval '1 second' WHERE id = ${eventId}`,
    );
    expect(await r.relayOnce()).toBe(1);
    expect(publisher.published.map((m) => m.id)).toEqual([eventId]);
  });

  it('when retention is zero, then a published row is deleted at the ack; otherwise the sweep deletes it once it is old', async () => {
    const publisher = new RecordingPublisher();
    const immediate = await database.transaction((tx) =>
      enqueue(tx, { name: 'a.b.c.v1', payload: new Uint8Array([1]) }),
    );
    expect(await relay(publisher, { retentionMs: 0 }).relayOnce()).toBe(1);
    expect(await row(immediate)).toBeUndefined();

    const kept = await database.transaction((tx) =>
      enqueue(tx, { name: 'a.b.c.v1', payload: new Uint8Array([2]) }),
    );
    const r = relay(publisher, { retentionMs: 3_600_000 });
    expect(await r.relayOnce()).toBe(1);
    expect(await row(kept)).toBeDefined();
    await database.execute(sql`UPDATE outbox SET sent_at = now() - interval '2 hours' WHERE id = ${kept}`);
    r.start();
    await eventually(async () => (await row(kept)) === undefined, 'the sweep to delete the old sent row');
  });

  it('when notified after a commit, then a started relay publishes without waiting for its poll interval', async () => {
    const publisher = new RecordingPublisher();
    const r = relay(publisher, { pollIntervalMs: 600_000 });
    r.start();
    await eventually(() => publisher.calls === 0, 'the first idle pass');
    await new Promise((resolve) => setTimeout(resolve, 50));

    const eventId = await database.transaction((tx) =>
      enqueue(tx, { name: 'a.b.c.v1', payload: new Uint8Array([3]) }),
    );
    r.notify();

    await eventually(
      () => publisher.published.some((m) => m.id === eventId),
      'the notified relay to publish',
    );
  });

  it('when a started relay’s first pass leaves a row held, then it publishes the row once the hold runs out, not at its poll interval', async () => {
    // A row of a process that died after claiming it (held for a while), beside one due now.
    const [due, held] = await database.transaction(async (tx) => [
      await enqueue(tx, { name: 'a.b.due.v1', payload: new Uint8Array([1]) }),
      await enqueue(tx, { name: 'a.b.held.v1', payload: new Uint8Array([2]) }),
    ]);
    await database.execute(
      sql`UPDATE outbox SET next_attempt_at = now() + interval '1 second' WHERE id = ${held}`,
    );
    const publisher = new RecordingPublisher();
    relay(publisher, { pollIntervalMs: 600_000 }).start();
    await eventually(
      () => publisher.published.map((m) => m.id).join() === [due, held].join(),
      'the row due now, then the held one',
      5_000,
    );
  });

  it('when a relay dies between its claim and its mark, then no other relay takes the batch while it is claimed, and one publishes it with the same ids once the claim runs out', async () => {
    const stuck = new RecordingPublisher();
    stuck.gate = new Promise(() => undefined); // a broker round trip that never ends: the process died in it
    const ids = await database.transaction(async (tx) => [
      await enqueue(tx, { name: 'a.b.first.v1', payload: new Uint8Array([1]) }),
      await enqueue(tx, { name: 'a.b.second.v1', payload: new Uint8Array([2]) }),
    ]);
    const dying = relay(stuck, { claimMs: 1_500, publishTimeoutMs: 4_000 }).relayOnce();
    await eventually(() => stuck.calls === 1, 'the first relay to claim and publish');

    const other = new RecordingPublisher();
    const survivor = relay(other, { claimMs: 1_500 });
    expect(await survivor.relayOnce()).toBe(0);
    expect(other.calls).toBe(0);
    expect((await row(ids[0]!))!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());

    await eventually(async () => (await survivor.relayOnce()) === 2, 'the claim to run out', 10_000);
    // Republished in the order they were written, with the ids they were written with.
    expect(other.published.map((m) => m.id)).toEqual(ids);
    expect(await row(ids[1]!)).toMatchObject({ sentAt: expect.any(Date) });
    expect(await dying).toBe(0); // its publish timed out: counted as failed, never as confirmed
    // Its failure does not touch the rows the other relay published meanwhile.
    expect(await row(ids[0]!)).toMatchObject({ sentAt: expect.any(Date), attempts: 0, lastError: null });
  });

  it('when stopped during a publish, then stop waits for the batch to be confirmed and marked', async () => {
    const publisher = new RecordingPublisher();
    let release!: () => void;
    publisher.gate = new Promise((resolve) => (release = resolve));
    const eventId = await database.transaction((tx) =>
      enqueue(tx, { name: 'a.b.c.v1', payload: new Uint8Array([4]) }),
    );
    const r = relay(publisher);
    r.start();
    await eventually(() => publisher.calls === 1, 'the publish to start');

    let stopped = false;
    const stopping = r.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stopped).toBe(false);
    release();
    await stopping;

    expect(publisher.published.map((m) => m.id)).toEqual([eventId]);
    expect(await row(eventId)).toMatchObject({ sentAt: expect.any(Date) });
  });

  it('when metrics are scraped, then published, failed and pending counts are reported per source, and the bytes sent per event', async () => {
    const registry = new Registry();
    const publisher = new RecordingPublisher();
    const r = relay(publisher, { registry, backoff: { initialMs: 60_000, maxMs: 60_000 } });
    await database.transaction((tx) => enqueue(tx, { name: 'a.b.c.v1', payload: new Uint8Array([5]) }));
    await database.transaction((tx) => enqueue(tx, { name: 'd.e.f.v2', payload: new Uint8Array(300) }));
    await r.relayOnce();
    publisher.failWith = new Error('broker down');
    await database.transaction(async (tx) => {
      await enqueue(tx, { name: 'a.b.c.v1', payload: new Uint8Array([6]) });
      await enqueue(tx, { name: 'a.b.c.v1', payload: new Uint8Array([7]) });
    });
    await r.relayOnce();

    const text = await registry.metrics();
    expect(text).toContain('outbox_published_total{source="outbox-test"} 2');
    // The failed publishes carry nothing yet: only what the broker confirmed is counted.
    expect(text).toContain('outbox_published_bytes_total{event="a.b.c.v1"} 1');
    expect(text).toContain('outbox_published_bytes_total{event="d.e.f.v2"} 300');
    expect(text).toContain('outbox_publish_failures_total{source="outbox-test"} 2');
    expect(text).toContain('outbox_pending_messages{source="outbox-test"} 2');
    expect(text).toMatch(/outbox_oldest_pending_seconds\{source="outbox-test"\} \d/);
  });
});
