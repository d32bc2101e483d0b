import { createTestDatabase, type TestDatabase } from '@readiness/testing';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { toAppError } from '../errors';
import { createLogger } from '../logger';
import { openDatabase, pgErrorCode, rows, type Database, type Runner } from './index';

const logger = createLogger({ name: 'prepared-test', level: 'silent' });

interface Prepared {
  name: string;
  statement: string;
  generic_plans: string;
  custom_plans: string;
}

/** The prepared statements of the pool's one connection, as the server keeps them. */
const preparedOn = (database: Database) =>
  database.execute<Prepared>(
    sql`SELECT name, statement, generic_plans::text, custom_plans::text FROM pg_prepared_statements`,
  );

describe('statements sent named (prepared once per connection)', () => {
  let testDb: TestDatabase;
  let database: Database;
  let other: pg.Client;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    // One connection, so every statement of a test and the look at pg_prepared_statements share it.
    database = await openDatabase({ url: testDb.url, logger, poolMax: 1 });
    other = new pg.Client({ connectionString: testDb.url });
    await other.connect();
    await other.query('CREATE TABLE items (id int PRIMARY KEY, label text NOT NULL)');
    await other.query(`INSERT INTO items SELECT g, 'item ' || g FROM generate_series(1, 500) g`);
  });

  afterAll(async () => {
    await database.close();
    await other.end();
    await testDb.close();
  });

  it('when a parameterised statement runs twelve times, then the server parsed it once and stopped planning it', async () => {
    for (let id = 1; id <= 12; id += 1) {
      const [row] = await database.execute<{ label: string }>(sql`SELECT label FROM items WHERE id = ${id}`);
      expect(row?.label).toBe(`item ${id}`);
    }
    const mine = (await preparedOn(database)).filter((p) => p.statement.includes('FROM items WHERE id'));
    expect(mine).toHaveLength(1);
    // Five custom plans, then the generic plan is kept: no planning for the other seven runs.
    expect(Number(mine[0]!.custom_plans) + Number(mine[0]!.generic_plans)).toBe(12);
    expect(Number(mine[0]!.generic_plans)).toBeGreaterThanOrEqual(6);
  });

  it('when statements carry no parameter or a long list of them, then they are not kept on the connection', async () => {
    await database.execute(sql`SELECT count(*) FROM items`);
    for (let n = 65; n <= 90; n += 1) {
      const ids = Array.from({ length: n }, (_, i) => i + 1);
      const [row] = await database.execute<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM items WHERE id IN (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      );
      expect(row?.n).toBe(n);
    }
    const kept = await preparedOn(database);
    expect(kept.filter((p) => p.statement.includes('count('))).toEqual([]);
  });

  it('when the table of a prepared SELECT * changes shape, then the next statement still answers, with the new column', async () => {
    const read = (id: number) =>
      database.execute<Record<string, unknown>>(sql`SELECT * FROM items WHERE id = ${id}`);
    for (let id = 1; id <= 7; id += 1) expect(await read(id)).toEqual([{ id, label: `item ${id}` }]);

    // A rolling upgrade: another process migrates the table while this one holds the prepared statement.
    await other.query(`ALTER TABLE items ADD COLUMN note text NOT NULL DEFAULT 'migrated'`);

    expect(await read(8)).toEqual([{ id: 8, label: 'item 8', note: 'migrated' }]);
    expect(await read(9)).toEqual([{ id: 9, label: 'item 9', note: 'migrated' }]);
  });

  it('when the table changes shape under a prepared statement inside a transaction, then that transaction fails and the next one succeeds', async () => {
    const read = (runner: Runner, id: number) =>
      rows<Record<string, unknown>>(runner, sql`SELECT id, label, note FROM items WHERE id > ${id} LIMIT 1`);
    for (let id = 1; id <= 7; id += 1) await read(database.db, id);
    await other.query('ALTER TABLE items ALTER COLUMN note TYPE varchar(40)');

    const failed = await database.transaction((tx) => read(tx, 10)).catch((err: unknown) => err);
    expect(pgErrorCode(failed)).toBe('0A000');
    // What the caller answers: a 503 the student or the bus retries, not a 500.
    expect(toAppError(failed)).toMatchObject({ httpStatus: 503 });

    // The caller's retry: the same statement, in a new transaction.
    expect(await database.transaction((tx) => read(tx, 10))).toEqual([
      { id: 11, label: 'item 11', note: 'migrated' },
    ]);
  });

  it('when prepared statements are turned off (a pooler in transaction mode), then nothing is kept on the connection', async () => {
    const plain = await openDatabase({ url: testDb.url, logger, poolMax: 1, preparedStatements: false });
    try {
      for (let id = 1; id <= 3; id += 1) await plain.execute(sql`SELECT label FROM items WHERE id = ${id}`);
      expect(await preparedOn(plain)).toEqual([]);
    } finally {
      await plain.close();
    }
  });
});
