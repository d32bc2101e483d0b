import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { migrate, type Database } from '../db';
import { databaseDrivers } from '../db/test/drivers';
import { kitMigrationsDir, runClaimed, type ClaimedEffect } from './index';

jest.setTimeout(30_000);

const permanentError = new Error('mailbox unknown');

describe.each(databaseDrivers({ poolMax: 5 }))('runClaimed on %s', (_driver, open) => {
  let database: Database;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    ({ database, cleanup } = await open());
    await migrate(database, [kitMigrationsDir]);
  });
  afterAll(() => cleanup());

  const claim = (key: string, overrides: Partial<ClaimedEffect> = {}): ClaimedEffect => ({
    scope: 'mail:test',
    key,
    leaseSeconds: 60,
    attempt: 1,
    maxAttempts: 3,
    isPermanent: (err) => err === permanentError,
    ...overrides,
  });

  async function row(key: string) {
    const [r] = await database.execute<{ status: string; attempts: number; last_error: string | null }>(
      sql`SELECT status, attempts, last_error FROM effect_claims WHERE scope = 'mail:test' AND key = ${key}`,
    );
    return r;
  }

  it('when a second delivery arrives while the first is sending, then it is refused with 409 and the effect runs once', async () => {
    const key = randomUUID();
    let sends = 0;
    let release!: () => void;
    const first = runClaimed(database, claim(key), async () => {
      sends += 1;
      await new Promise<void>((resolve) => (release = resolve));
    });
    while (sends === 0) await new Promise((r) => setTimeout(r, 10));

    await expect(runClaimed(database, claim(key), async () => void (sends += 1))).rejects.toMatchObject({
      code: 'effect_in_progress',
      httpStatus: 409,
    });
    release();
    expect(await first).toBe('done');
    expect(await runClaimed(database, claim(key), async () => void (sends += 1))).toBe('duplicate');
    expect(sends).toBe(1);
    expect(await row(key)).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('when twelve deliveries of a new effect arrive at once, then one runs it and every other is refused or finds it done', async () => {
    const key = randomUUID();
    let sends = 0;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 12 }, () =>
        runClaimed(database, claim(key), async () => {
          sends += 1;
          await new Promise((r) => setTimeout(r, 50));
        }),
      ),
    );
    expect(sends).toBe(1);
    expect(outcomes.filter((o) => o.status === 'fulfilled' && o.value === 'done')).toHaveLength(1);
    for (const o of outcomes) {
      if (o.status === 'rejected') expect(o.reason).toMatchObject({ code: 'effect_in_progress' });
      else expect(['done', 'duplicate']).toContain(o.value);
    }
    expect(await row(key)).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('when the worker holding a claim died, then another delivery takes it over once the lease ran out', async () => {
    const key = randomUUID();
    // A claim left 'running' by a process that never came back.
    void runClaimed(database, claim(key, { leaseSeconds: 1 }), () => new Promise(() => undefined));
    await new Promise((r) => setTimeout(r, 100));
    await expect(runClaimed(database, claim(key), async () => undefined)).rejects.toMatchObject({
      httpStatus: 409,
    });

    await new Promise((r) => setTimeout(r, 1_100));
    let sent = false;
    expect(await runClaimed(database, claim(key), async () => void (sent = true))).toBe('done');
    expect(sent).toBe(true);
  });

  it('when the effect fails, then it is retried until the last attempt gives it up, and a permanent failure gives up at once', async () => {
    const key = randomUUID();
    const failing = async () => {
      throw new Error('server busy');
    };
    await expect(runClaimed(database, claim(key, { attempt: 1 }), failing)).rejects.toThrow('server busy');
    expect(await row(key)).toMatchObject({ status: 'pending', attempts: 1, last_error: 'server busy' });
    await expect(runClaimed(database, claim(key, { attempt: 3 }), failing)).rejects.toThrow('server busy');
    expect(await row(key)).toMatchObject({ status: 'failed', attempts: 2 });
    expect(await runClaimed(database, claim(key), async () => undefined)).toBe('duplicate');

    const refused = randomUUID();
    const outcome = await runClaimed(database, claim(refused), async () => {
      throw permanentError;
    });
    expect(outcome).toBe('rejected');
    expect(await row(refused)).toMatchObject({ status: 'failed', last_error: 'mailbox unknown' });
  });
});
