import {
  createTestDatabase,
  rewriteUrlPort,
  startTcpProxy,
  type TcpProxy,
  type TestDatabase,
} from '@readiness/testing';
import { sql } from 'drizzle-orm';
import { toAppError } from '../errors';
import { createLogger } from '../logger';
import { openDatabase, type Database } from './index';

const logger = createLogger({ name: 'db-unavailable-test', level: 'silent' });

describe('PostgreSQL connection lost', () => {
  let testDb: TestDatabase;
  let proxy: TcpProxy;
  let database: Database;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    const target = new URL(testDb.url);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    database = await openDatabase({ url: rewriteUrlPort(testDb.url, proxy.port), logger, poolMax: 4 });
    await database.execute(sql`CREATE TABLE items (id int PRIMARY KEY)`);
  });

  afterAll(async () => {
    await database.close();
    await proxy.close();
    await testDb.close();
  });

  it('when the database is unreachable, then queries fail as 503 and the process keeps running; after it returns they succeed', async () => {
    // Open several pooled connections so that cutting them exercises the idle-client error path.
    await Promise.all([1, 2, 3].map((id) => database.execute(sql`INSERT INTO items VALUES (${id})`)));

    proxy.cut();

    const queryFailure = await database.execute(sql`SELECT count(*) FROM items`).catch((err: unknown) => err);
    expect(toAppError(queryFailure)).toMatchObject({ httpStatus: 503, code: 'unavailable' });
    const txFailure = await database
      .transaction((tx) => tx.execute(sql`INSERT INTO items VALUES (4)`))
      .catch((err: unknown) => err);
    expect(toAppError(txFailure)).toMatchObject({ httpStatus: 503, code: 'unavailable' });
    expect(await database.ping()).toBe(false);

    proxy.restore();

    expect(await database.ping()).toBe(true);
    expect(await database.execute(sql`SELECT count(*)::int AS n FROM items`)).toEqual([{ n: 3 }]);
  });

  it('when a transaction loses its connection between two statements, then it fails as 503 and nothing of it is committed', async () => {
    const failure = await database
      .transaction(async (tx) => {
        await tx.execute(sql`INSERT INTO items VALUES (10)`);
        proxy.cut();
        await new Promise((resolve) => setTimeout(resolve, 20));
        await tx.execute(sql`INSERT INTO items VALUES (11)`);
      })
      .catch((err: unknown) => err);
    proxy.restore();

    expect(toAppError(failure).httpStatus).toBe(503);
    expect(await database.execute(sql`SELECT id FROM items WHERE id >= 10`)).toEqual([]);
  });
});
