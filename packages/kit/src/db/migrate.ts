import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../logger';
import type { Database } from './index';

/** Any constant works; all processes migrating one database must agree on it. */
const MIGRATION_LOCK_KEY = 727_001_001;

export interface MigrationFile {
  name: string;
  file: string;
  checksum: string;
}

/**
 * Applies the `*.sql` files of `dirs` that this database has not seen yet, and returns their names.
 *
 * Order: the dirs in the order given (the kit's tables before a service's), files by name within each dir.
 * A file is identified by its name, so names must be unique across dirs. Each file runs in its own
 * transaction together with its `schema_migrations` row, so a failing file leaves no trace and is retried
 * on the next start. Every transaction first takes a transaction-scoped advisory lock and re-checks the
 * table: two processes starting at once apply each file exactly once, and the lock never outlives a
 * pooled connection's transaction. Statements that refuse to run in a transaction
 * (`CREATE INDEX CONCURRENTLY`) are therefore not supported.
 */
export async function migrate(database: Database, dirs: string[], logger?: Logger): Promise<string[]> {
  const files = listMigrations(dirs);
  const known = await database.rawTransaction(async (raw) => {
    await raw.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await raw.exec(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         name text PRIMARY KEY,
         checksum text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    return raw.query<{ name: string; checksum: string }>('SELECT name, checksum FROM schema_migrations');
  });
  const knownChecksums = new Map(known.map((row) => [row.name, row.checksum]));

  const applied: string[] = [];
  for (const migration of files) {
    const previous = knownChecksums.get(migration.name);
    if (previous !== undefined) {
      if (previous !== migration.checksum) {
        // Editing an applied migration changes nothing in existing databases; say so instead of failing a boot.
        logger?.warn(
          { migration: migration.name },
          'an applied migration file has changed since it was applied',
        );
      }
      continue;
    }
    const sqlText = readFileSync(migration.file, 'utf8');
    const ran = await database
      .rawTransaction(async (raw) => {
        await raw.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
        const done = await raw.query('SELECT 1 FROM schema_migrations WHERE name = $1', [migration.name]);
        if (done.length > 0) return false;
        await raw.exec(sqlText);
        await raw.query('INSERT INTO schema_migrations (name, checksum) VALUES ($1, $2)', [
          migration.name,
          migration.checksum,
        ]);
        return true;
      })
      .catch((err: unknown) => {
        throw new Error(`migration ${migration.name} failed and was rolled back`, { cause: err });
      });
    if (ran) {
      applied.push(migration.name);
      logger?.info({ migration: migration.name }, 'migration applied');
    }
  }
  return applied;
}

/** The `*.sql` files of `dirs` in the order `migrate` applies them, each with its content's checksum. */
export function listMigrations(dirs: string[]): MigrationFile[] {
  const seen = new Map<string, string>();
  const result: MigrationFile[] = [];
  for (const dir of dirs) {
    const names = readdirSync(dir)
      .filter((name) => name.endsWith('.sql'))
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const name of names) {
      const file = path.join(dir, name);
      const other = seen.get(name);
      if (other)
        throw new Error(`migration ${name} exists in both ${other} and ${dir}; names must be unique`);
      seen.set(name, dir);
      const checksum = createHash('sha256').update(readFileSync(file)).digest('hex');
      result.push({ name, file, checksum });
    }
  }
  return result;
}
