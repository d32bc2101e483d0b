import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '@readiness/testing';
import { sql } from 'drizzle-orm';
import { createLogger } from '../logger';
import { migrate, openDatabase, type Database } from './index';
import { databaseDrivers } from './test/drivers';

jest.setTimeout(30_000);

const logger = createLogger({ name: 'migrate-test', level: 'silent' });
const dirs: string[] = [];

function dirWith(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'migrations-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  dirs.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function tableExists(database: Database, table: string): Promise<boolean> {
  const rows = await database.execute<{ found: string | null }>(
    sql`SELECT to_regclass(${table})::text AS found`,
  );
  return rows[0]?.found != null;
}

async function recorded(database: Database): Promise<string[]> {
  const rows = await database.execute<{ name: string }>(
    sql`SELECT name FROM schema_migrations ORDER BY name`,
  );
  return rows.map((r) => r.name);
}

const drivers = databaseDrivers();

describe.each(drivers)('migrate on %s', (_driver, open) => {
  let opened: { database: Database; cleanup(): Promise<void> };
  beforeEach(async () => {
    opened = await open();
  });
  afterEach(() => opened.cleanup());

  it('when run twice, then each file is applied once, dirs in the given order and files by name', async () => {
    const kit = dirWith({ 'kit-0001-log.sql': 'CREATE TABLE log (entry text NOT NULL);' });
    const service = dirWith({
      '0002_b.sql': "CREATE TABLE b (id int); INSERT INTO log VALUES ('b');",
      '0001_a.sql': "CREATE TABLE a (id int);\nINSERT INTO log VALUES ('a');",
      'README.md': 'not a migration',
    });

    const first = await migrate(opened.database, [kit, service]);
    const second = await migrate(opened.database, [kit, service]);

    expect(first).toEqual(['kit-0001-log.sql', '0001_a.sql', '0002_b.sql']);
    expect(second).toEqual([]);
    expect(await opened.database.execute(sql`SELECT entry FROM log`)).toEqual([
      { entry: 'a' },
      { entry: 'b' },
    ]);
  });

  it('when a migration fails, then its changes are rolled back, it is not recorded, and a fixed file applies later', async () => {
    const dir = dirWith({
      '0001_ok.sql': 'CREATE TABLE ok (id int);',
      '0002_broken.sql':
        'CREATE TABLE half (id int);\nINSERT INTO ok VALUES (1);\nSELECT * FROM no_such_table;',
      '0003_after.sql': 'CREATE TABLE after_broken (id int);',
    });

    await expect(migrate(opened.database, [dir])).rejects.toThrow('migration 0002_broken.sql failed');

    expect(await recorded(opened.database)).toEqual(['0001_ok.sql']);
    expect(await tableExists(opened.database, 'half')).toBe(false);
    expect(await tableExists(opened.database, 'after_broken')).toBe(false);
    expect(await opened.database.execute(sql`SELECT count(*)::int AS n FROM ok`)).toEqual([{ n: 0 }]);

    writeFileSync(path.join(dir, '0002_broken.sql'), 'CREATE TABLE half (id int);');
    expect(await migrate(opened.database, [dir])).toEqual(['0002_broken.sql', '0003_after.sql']);
  });

  it('when two dirs hold a file of the same name, then nothing is applied and the clash is reported', async () => {
    const one = dirWith({ '0001_init.sql': 'CREATE TABLE one (id int);' });
    const two = dirWith({ '0001_init.sql': 'CREATE TABLE two (id int);' });

    await expect(migrate(opened.database, [one, two])).rejects.toThrow(/0001_init\.sql exists in both/);
    expect(await tableExists(opened.database, 'one')).toBe(false);
  });
});

describe('migrate on PostgreSQL from two processes at once', () => {
  let testDb: TestDatabase;
  let a: Database;
  let b: Database;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    a = await openDatabase({ url: testDb.url, logger, name: 'replica-a' });
    b = await openDatabase({ url: testDb.url, logger, name: 'replica-b' });
  });

  afterAll(async () => {
    await a.close();
    await b.close();
    await testDb.close();
  });

  it('when two replicas migrate concurrently, then every file is applied exactly once', async () => {
    const files: Record<string, string> = { '0000_log.sql': 'CREATE TABLE log (entry text NOT NULL);' };
    // CREATE TABLE without IF NOT EXISTS fails when run twice, and the log row would be doubled.
    for (let i = 1; i <= 20; i++) {
      const name = `${String(i).padStart(4, '0')}_t${i}.sql`;
      files[name] =
        `CREATE TABLE t${i} (id int); INSERT INTO log VALUES ('${name}'); SELECT pg_sleep(0.005);`;
    }
    const dir = dirWith(files);

    const [fromA, fromB] = await Promise.all([migrate(a, [dir]), migrate(b, [dir])]);

    expect([...fromA, ...fromB].sort()).toEqual(Object.keys(files).sort());
    const log = await a.execute<{ entry: string }>(sql`SELECT entry FROM log ORDER BY entry`);
    expect(log.map((r) => r.entry)).toEqual(Object.keys(files).filter((n) => n !== '0000_log.sql'));
  });
});
