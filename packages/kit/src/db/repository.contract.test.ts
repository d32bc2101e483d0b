import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import { AppError, conflict, toAppError } from '../errors';
import { createLogger } from '../logger';
import { openServiceDatabase } from '../runtime';
import { isUniqueViolation, migrate, rows, type Database, type Runner } from './index';
import { databaseDrivers, type OpenedDatabase } from './test/drivers';

jest.setTimeout(30_000);

const logger = createLogger({ name: 'db-test', level: 'silent' });

const NOTES_SQL = `
CREATE TABLE notes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  title text NOT NULL UNIQUE,
  body text NOT NULL,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE counters (name text PRIMARY KEY, value integer NOT NULL);
`;

interface Note {
  id: string;
  title: string;
  body: string;
  version: number;
  createdAt: Date;
}

type NoteRow = Omit<Note, 'createdAt'> & { created_at: string };

/** The kind of repository a service writes: `sql` through `rows`, plain objects out, AppErrors for rule breaks. */
function notesRepository(runner: Runner) {
  const NOTE = sql`id, title, body, version, created_at`;
  const toNote = (r: NoteRow): Note => ({
    id: r.id,
    title: r.title,
    body: r.body,
    version: r.version,
    createdAt: new Date(r.created_at),
  });
  const notes = async (query: SQL) => (await rows<NoteRow>(runner, query)).map(toNote);
  return {
    async create(input: { title: string; body: string }) {
      try {
        const [note] = await notes(
          sql`INSERT INTO notes (title, body) VALUES (${input.title}, ${input.body}) RETURNING ${NOTE}`,
        );
        return note!;
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict('A note with this title already exists', 'note_exists');
        throw err;
      }
    },
    async findById(id: string) {
      const [note] = await notes(sql`SELECT ${NOTE} FROM notes WHERE id = ${id}`);
      return note;
    },
    async update(id: string, patch: { body: string }) {
      const [note] = await notes(
        sql`UPDATE notes SET body = ${patch.body}, version = version + 1 WHERE id = ${id} RETURNING ${NOTE}`,
      );
      return note;
    },
    async count() {
      const [row] = await rows<{ n: number }>(runner, sql`SELECT count(*)::int AS n FROM notes`);
      return row!.n;
    },
  };
}

function migrationsDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'notes-migrations-'));
  writeFileSync(path.join(dir, '0001_notes.sql'), NOTES_SQL);
  return dir;
}

const drivers = databaseDrivers({ embedded: true });

describe.each(drivers)('notes repository on %s', (_driver, open) => {
  let opened: OpenedDatabase;
  let database: Database;
  let dir: string;

  beforeAll(async () => {
    opened = await open();
    database = opened.database;
    dir = migrationsDir();
    await migrate(database, [dir]);
  });

  afterAll(async () => {
    await opened.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('when a note is inserted, then it reads back by id with its generated id, version and timestamp', async () => {
    const repo = notesRepository(database.db);
    const created = await repo.create({ title: `inserted ${Math.random()}`, body: 'hello' });

    const found = await repo.findById(created.id);

    expect(found).toEqual({ ...created, version: 1 });
    expect(found!.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(found!.createdAt).toBeInstanceOf(Date);
    expect(await repo.findById('00000000-0000-4000-8000-000000000000')).toBeUndefined();
  });

  it('when a note is updated, then the new body is read back with the version incremented', async () => {
    const repo = notesRepository(database.db);
    const created = await repo.create({ title: `updated ${Math.random()}`, body: 'before' });

    const updated = await repo.update(created.id, { body: 'after' });

    expect(updated).toMatchObject({ id: created.id, body: 'after', version: 2 });
    expect(await repo.findById(created.id)).toMatchObject({ body: 'after', version: 2 });
    expect(await repo.update('00000000-0000-4000-8000-000000000000', { body: 'x' })).toBeUndefined();
  });

  it('when a second note takes a used title, then it fails with a 409 conflict and the first note is unchanged', async () => {
    const repo = notesRepository(database.db);
    const title = `unique ${Math.random()}`;
    const first = await repo.create({ title, body: 'first' });

    const failure = await repo.create({ title, body: 'second' }).catch((err: unknown) => err);

    expect(failure).toBeInstanceOf(AppError);
    expect(toAppError(failure)).toMatchObject({ httpStatus: 409, code: 'note_exists' });
    expect(await repo.findById(first.id)).toMatchObject({ body: 'first' });
  });

  it('when a transaction throws after writing, then nothing it wrote is left and the error reaches the caller', async () => {
    const before = await notesRepository(database.db).count();
    const boom = new Error('rule broken after the write');

    const failure = await database
      .transaction(async (tx) => {
        const repo = notesRepository(tx);
        const created = await repo.create({ title: `rolled back ${Math.random()}`, body: 'x' });
        await repo.update(created.id, { body: 'y' });
        throw boom;
      })
      .catch((err: unknown) => err);

    expect(failure).toBe(boom);
    expect(await notesRepository(database.db).count()).toBe(before);
  });

  it('when a unique violation happens inside a transaction, then the whole transaction is rolled back', async () => {
    const title = `tx conflict ${Math.random()}`;
    await notesRepository(database.db).create({ title, body: 'existing' });
    const before = await notesRepository(database.db).count();

    const failure = await database
      .transaction(async (tx) => {
        await notesRepository(tx).create({ title: `${title} other`, body: 'x' });
        await notesRepository(tx).create({ title, body: 'duplicate' });
      })
      .catch((err: unknown) => err);

    expect(toAppError(failure).httpStatus).toBe(409);
    expect(await notesRepository(database.db).count()).toBe(before);
  });

  it('when transactions run concurrently, one rolling back does not undo the others that commit', async () => {
    const prefix = `concurrent ${Math.random()}`;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        database.transaction(async (tx) => {
          await notesRepository(tx).create({ title: `${prefix} ${i}`, body: 'x' });
          await new Promise((resolve) => setTimeout(resolve, 5));
          if (i % 2 === 1) throw new Error('odd ones roll back');
        }),
      ),
    );

    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(5);
    const titles = await rows<{ title: string }>(
      database.db,
      sql`SELECT title FROM notes WHERE title LIKE ${`${prefix}%`}`,
    );
    expect(titles.map((r) => r.title).sort()).toEqual([0, 2, 4, 6, 8].map((i) => `${prefix} ${i}`));
  });

  it('when concurrent transactions increment one counter, then no increment is lost', async () => {
    await database.execute(sql`INSERT INTO counters (name, value) VALUES ('hits', 0)`);

    await Promise.all(
      Array.from({ length: 20 }, () =>
        database.transaction(async (tx) => {
          const [row] = await rows<{ value: number }>(
            tx,
            sql`SELECT value FROM counters WHERE name = 'hits' FOR UPDATE`,
          );
          await new Promise((resolve) => setImmediate(resolve));
          await tx.execute(sql`UPDATE counters SET value = ${row!.value + 1} WHERE name = 'hits'`);
        }),
      ),
    );

    expect(await database.execute(sql`SELECT value FROM counters WHERE name = 'hits'`)).toEqual([
      { value: 20 },
    ]);
  });

  it('when raw SQL is executed, then rows come back with the same value types as on every other driver', async () => {
    const rows = await database.execute<Record<string, unknown>>(
      sql`SELECT 1::int AS i, 'x'::text AS t, true AS yes, NULL::text AS nothing,
                 '\\x0102'::bytea AS b, '2030-01-02T03:04:05Z'::timestamptz AS ts,
                 '{"a":1}'::jsonb AS j`,
    );

    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row).toMatchObject({ i: 1, t: 'x', yes: true, nothing: null, j: { a: 1 } });
    expect(row.b).toBeInstanceOf(Uint8Array);
    expect([...(row.b as Uint8Array)]).toEqual([1, 2]);
    expect(typeof row.ts).toBe('string');
    expect(new Date(row.ts as string).toISOString()).toBe('2030-01-02T03:04:05.000Z');
  });

  it('when the database answers, then ping is true', async () => {
    expect(await database.ping()).toBe(true);
  });
});

describe('embedded PostgreSQL persistence', () => {
  it('when a service without DATABASE_URL closes its database and opens it again, then its rows and applied migrations are still there', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'embedded-pg-persist-'));
    chmodSync(dataDir, 0o755);
    const dir = migrationsDir();
    const open = () => openServiceDatabase({ service: 'notes', config: { DATA_DIR: dataDir }, logger });
    try {
      const first = await open();
      expect(await migrate(first, [dir])).toEqual(['0001_notes.sql']);
      const created = await notesRepository(first.db).create({ title: 'kept', body: 'on disk' });
      await first.close();

      const second = await open();
      try {
        expect(await notesRepository(second.db).findById(created.id)).toMatchObject({
          title: 'kept',
          body: 'on disk',
        });
        expect(await migrate(second, [dir])).toEqual([]);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
