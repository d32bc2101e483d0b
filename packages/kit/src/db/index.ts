import { sql, type SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { Logger } from '../logger';
import { prepareStatements, statementNames } from './prepared';

export { listMigrations, migrate, type MigrationFile } from './migrate';
export { migrationsFolder, runMigrationsCli } from './migrations-cli';
export { pgErrorCode, isUniqueViolation, isForeignKeyViolation } from './errors';

/** The drizzle database of node-postgres, typed by its query surface. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Db = PgDatabase<PgQueryResultHKT, any>;
/** A drizzle transaction; accepts the same query builders as `Db`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Tx = PgTransaction<PgQueryResultHKT, any, any>;

/** What runs a statement: the database's `db` or a transaction, so the caller chooses the transaction. */
export type Runner = Pick<Tx, 'execute'>;

/**
 * The one data-access helper: runs a query written with drizzle's `sql` template and returns its rows, typed
 * as the caller names them (column names as selected; timestamps arrive as strings, bigints as strings).
 */
export async function rows<R>(runner: Runner, query: SQL): Promise<R[]> {
  return ((await runner.execute(query)) as unknown as { rows: R[] }).rows;
}

/** The callbacks each open transaction runs once it committed, and the database each belongs to. */
const commitHooks = new WeakMap<object, { db: Db; hooks: Array<() => void> }>();

/**
 * Runs `fn` after the transaction `tx` (of `Database.transaction`) committed, never when it rolled back. Returns
 * false, running nothing, when `runner` is not such a transaction (the pool itself: each statement is its own
 * commit). A hook that throws is logged and does not fail the caller, whose commit happened.
 */
export function afterCommit(runner: Runner, fn: () => void): boolean {
  const open = commitHooks.get(runner);
  if (!open) return false;
  open.hooks.push(fn);
  return true;
}

/** The `db` a runner writes through: the pool itself, or the pool whose transaction it is. */
export const poolOf = (runner: Runner): object => commitHooks.get(runner)?.db ?? runner;

/** A value as a `jsonb` parameter, for the `sql` template. */
export const json = (value: unknown): SQL => sql`${JSON.stringify(value)}::jsonb`;

/** Driver-level access for the migration runner: multi-statement scripts need the simple query protocol. */
export interface RawTransaction {
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
  exec(script: string): Promise<void>;
}

export interface Database {
  readonly kind: 'postgres';
  readonly db: Db;
  /** Runs `fn` in one transaction, committed when it resolves and rolled back when it throws. */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Raw `sql\`\`` → rows. */
  execute<R = Record<string, unknown>>(query: SQL): Promise<R[]>;
  /** True when a trivial query succeeds; never throws (for readiness probes). */
  ping(): Promise<boolean>;
  /** Callers waiting for one of the pool's connections at this moment: the database's pressure, as the service feels it. */
  waitingForConnection(): number;
  close(): Promise<void>;
  /** For `migrate`: one transaction on the driver's own client. */
  rawTransaction<T>(fn: (raw: RawTransaction) => Promise<T>): Promise<T>;
}

export interface OpenDatabaseOptions {
  /** A PostgreSQL URL (the embedded server's too, see `@readiness/dev-servers`). */
  url: string;
  logger: Logger;
  poolMax?: number;
  /** Reported to PostgreSQL as `application_name`, so `pg_stat_activity` shows which service holds a connection. */
  name?: string;
  /** Called at each statement sent to the server (queries, BEGIN and COMMIT alike): the round trips, counted. */
  onQuery?: () => void;
  /**
   * Send parameterised statements named, so the server parses and plans each text once per connection (default
   * true). Off behind a pooler that hands a session's statements to other connections (PgBouncer in transaction
   * mode without `max_prepared_statements`).
   */
  preparedStatements?: boolean;
}

/** A node-postgres pool behind drizzle; the pool connects lazily, so opening never fails. */
export async function openDatabase(opts: OpenDatabaseOptions): Promise<Database> {
  const url = opts.url;
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
  const nameOf = opts.preparedStatements === false ? undefined : statementNames();
  pool.on('connect', (client) => {
    client.on('error', (err) => logger.warn({ err }, 'PostgreSQL connection failed while in use'));
    // Every statement of the pool, inside a transaction or not, goes through its client's `query`.
    let query = client.query.bind(client) as (...args: unknown[]) => unknown;
    if (nameOf) query = prepareStatements(client, query, nameOf, logger);
    const onQuery = opts.onQuery;
    if (onQuery) {
      const send = query;
      query = (...args: unknown[]) => {
        onQuery();
        return send(...args);
      };
    }
    client.query = query as typeof client.query;
  });
  const db = drizzlePg(pool);
  let closed: Promise<void> | undefined;

  return {
    kind: 'postgres',
    db,
    async transaction(fn) {
      const hooks: Array<() => void> = [];
      const result = await db.transaction((tx) => {
        commitHooks.set(tx, { db, hooks });
        return fn(tx);
      });
      for (const hook of hooks) {
        try {
          hook();
        } catch (err) {
          logger.error({ err }, 'a hook after a commit failed');
        }
      }
      return result;
    },
    execute: <R>(query: SQL) => rows<R>(db, query),
    async ping() {
      try {
        await pool.query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    waitingForConnection: () => pool.waitingCount,
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
