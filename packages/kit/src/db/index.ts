import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import type { Logger } from '../logger';

export { migrate } from './migrate';
export { migrationsFolder, runMigrationsCli } from './migrations-cli';
export { pgErrorCode, pgConstraint, isUniqueViolation, isForeignKeyViolation } from './errors';

/** The drizzle base type shared by the node-postgres and PGlite drivers. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Db = PgDatabase<PgQueryResultHKT, any>;
/** A drizzle transaction; accepts the same query builders as `Db`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Tx = PgTransaction<PgQueryResultHKT, any, any>;

/** Driver-level access for the migration runner: multi-statement scripts need the simple query protocol. */
export interface RawTransaction {
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
  exec(script: string): Promise<void>;
}

export interface Database {
  readonly kind: 'postgres' | 'pglite';
  readonly db: Db;
  /**
   * Runs `fn` in one transaction, committed when it resolves and rolled back when it throws. Inside `fn`
   * use only `tx`: on PGlite the single connection is held by the transaction, so a query through `db`
   * would wait for it forever.
   */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Raw `sql\`\`` → rows. Timestamps come back as strings and bytea as bytes on both drivers. */
  execute<R = Record<string, unknown>>(query: SQL): Promise<R[]>;
  /** True when a trivial query succeeds; never throws (for readiness probes). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
  /** For `migrate`: one transaction on the driver's own client. */
  rawTransaction<T>(fn: (raw: RawTransaction) => Promise<T>): Promise<T>;
}

export interface OpenDatabaseOptions {
  /** A PostgreSQL URL; without it the embedded PGlite is used. */
  url?: string;
  /** PGlite data folder (created when missing); without it PGlite keeps everything in memory. */
  dataDir?: string;
  logger: Logger;
  poolMax?: number;
  /** Reported to PostgreSQL as `application_name`, so `pg_stat_activity` shows which service holds a connection. */
  name?: string;
}

/** What both drivers do the same way through drizzle; `probe` is the driver's cheapest round trip. */
function queries(db: Db, probe: () => Promise<unknown>): Pick<Database, 'transaction' | 'execute' | 'ping'> {
  return {
    transaction: (fn) => db.transaction(fn),
    async execute<R>(query: SQL) {
      // node-postgres and PGlite both answer `{ rows }`.
      const result = (await db.execute(query)) as unknown as { rows: R[] };
      return result.rows;
    },
    async ping() {
      try {
        await probe();
        return true;
      } catch {
        return false;
      }
    },
  };
}

export async function openDatabase(opts: OpenDatabaseOptions): Promise<Database> {
  return opts.url ? openPostgres(opts.url, opts) : openPglite(opts);
}

function openPostgres(url: string, opts: OpenDatabaseOptions): Database {
  const logger = opts.logger.child({ component: 'db' });
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.poolMax ?? 10,
    application_name: opts.name,
    // A database that does not answer must turn into a 503 quickly instead of queueing requests forever.
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client that loses its server emits on the pool; without a listener node would crash the process.
  pool.on('error', (err) => logger.warn({ err }, 'idle PostgreSQL connection failed; the pool replaces it'));
  // A checked-out client (e.g. held by an open transaction between two queries) emits on itself instead.
  pool.on('connect', (client) => {
    client.on('error', (err) => logger.warn({ err }, 'PostgreSQL connection failed while in use'));
  });
  const db = drizzlePg(pool);
  let closed: Promise<void> | undefined;

  return {
    kind: 'postgres',
    db,
    ...queries(db, () => pool.query('SELECT 1')),
    close() {
      closed ??= pool.end();
      return closed;
    },
    async rawTransaction(fn) {
      const client = await pool.connect();
      let broken: unknown;
      try {
        await client.query('BEGIN');
        const raw: RawTransaction = {
          query: async <R>(text: string, params?: unknown[]) =>
            (await client.query(text, params)).rows as R[],
          exec: async (script) => {
            await client.query(script);
          },
        };
        const result = await fn(raw);
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch((rollbackErr: unknown) => {
          broken = rollbackErr;
        });
        throw err;
      } finally {
        // A connection whose rollback failed is in an unknown state: destroy it instead of reusing it.
        client.release(broken instanceof Error ? broken : undefined);
      }
    },
  };
}

async function openPglite(opts: OpenDatabaseOptions): Promise<Database> {
  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true });
  const client = opts.dataDir ? new PGlite(opts.dataDir) : new PGlite();
  await client.waitReady;
  opts.logger
    .child({ component: 'db' })
    .info({ dataDir: opts.dataDir ?? 'memory' }, 'using the embedded PGlite database');
  const db = drizzlePglite(client);
  let closed: Promise<void> | undefined;

  // PGlite is one connection. Its own mutex already queues every query and transaction behind an open
  // transaction (`query`, `exec` and `transaction` all run exclusively), so concurrent callers never
  // interleave statements; a second queue here would only duplicate that.
  return {
    kind: 'pglite',
    db,
    ...queries(db, () => client.query('SELECT 1')),
    close() {
      closed ??= client.closed ? Promise.resolve() : client.close();
      return closed;
    },
    rawTransaction(fn) {
      return client.transaction((t) =>
        fn({
          query: async <R>(text: string, params?: unknown[]) => (await t.query<R>(text, params)).rows,
          exec: async (script) => {
            await t.exec(script);
          },
        }),
      );
    },
  };
}
