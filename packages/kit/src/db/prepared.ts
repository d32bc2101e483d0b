import type pg from 'pg';
import type { Logger } from '../logger';
import { pgErrorCode } from './errors';

/**
 * Named (server-side prepared) statements for every connection of a pool.
 *
 * PostgreSQL parses and plans an unnamed statement each time it is sent. For the services' one-statement forms (a
 * CTE that inserts the inbox row, changes the state and queues the event) planning costs more than running: at an
 * enrolment peak it was a third of the server's time (docs/benchmarks.md). A statement sent under a name is parsed
 * once per connection; after five runs PostgreSQL keeps a generic plan when it is no worse than the custom ones, and
 * then stops planning it at all. node-postgres prepares a named statement on its first use on a connection and only
 * binds it afterwards.
 *
 * Each text gets a name of its own when first seen (one map per pool), so a name never stands for two texts.
 * Left unnamed: statements without parameters (the simple protocol: BEGIN, COMMIT, migration scripts), statements
 * with many parameters (lists of any length, each length a text of its own), and any text once a connection holds
 * `MAX_PER_CONNECTION` names, so a connection's prepared statements stay bounded.
 */
const MAX_PARAMS = 64;
const MAX_PER_CONNECTION = 256;
const MAX_NAMES = 4096;
/** A table changed under a prepared statement's result (a rolling upgrade's migration): SQLSTATE 0A000 with this text. */
const PLAN_CHANGED = 'cached plan must not change result type';
const planChanged = (err: unknown) =>
  pgErrorCode(err) === '0A000' && err instanceof Error && err.message.includes(PLAN_CHANGED);

interface QueryConfig {
  text: string;
  name?: string;
  values?: unknown[];
  [key: string]: unknown;
}

type Query = (...args: unknown[]) => unknown;
type Callback = (err: unknown, res?: unknown) => void;

/** Names by text, shared by the pool's connections (a text's name is computed once). */
export function statementNames() {
  const names = new Map<string, string>();
  return (text: string): string => {
    let name = names.get(text);
    if (name === undefined) {
      // Compact and unique per text: a counter, since hashing each text would cost more than looking it up.
      name = `s${names.size.toString(36)}`;
      if (names.size < MAX_NAMES) names.set(text, name);
      else return '';
    }
    return name;
  };
}

/**
 * Wraps a connection's `query` so that the statements worth it are sent named. A statement whose prepared plan a
 * schema change broke is sent unnamed from then on, on that connection; outside a transaction it is sent again at
 * once, inside one the error stands (the transaction is already aborted) and the caller's retry gets a fresh run.
 */
export function prepareStatements(
  client: pg.PoolClient,
  query: Query,
  nameOf: (text: string) => string,
  logger: Logger,
): Query {
  const named = new Set<string>();
  const broken = new Set<string>();
  // The server's transaction status after each statement: 'I' idle, 'T' in a transaction, 'E' in a failed one.
  let status = 'I';
  const connection = (client as unknown as { connection?: NodeJS.EventEmitter }).connection;
  connection?.on('readyForQuery', (msg: { status?: string }) => {
    status = msg.status ?? status;
  });

  const nameFor = (config: QueryConfig, values: unknown[]): string | undefined => {
    if (config.name !== undefined || values.length === 0 || values.length > MAX_PARAMS) return undefined;
    const name = nameOf(config.text);
    if (!name || broken.has(name)) return undefined;
    if (!named.has(name)) {
      if (named.size >= MAX_PER_CONNECTION) return undefined;
      named.add(name);
    }
    return name;
  };

  const send = (cfg: QueryConfig, params: unknown[], name: string) =>
    (query({ ...cfg, name, values: params }) as Promise<unknown>).catch((err: unknown) => {
      if (!planChanged(err)) throw err;
      broken.add(name);
      logger.warn(
        { statement: name, inTransaction: status !== 'I' },
        'a prepared statement no longer fits its table (schema changed); it is sent unnamed on this connection',
      );
      if (status !== 'I') throw err;
      return query({ ...cfg, values: params });
    });

  return (...args: unknown[]) => {
    // The pool's own `query` hands a callback as the last argument; drizzle's transactions await a promise.
    const callback = typeof args[args.length - 1] === 'function' ? (args.pop() as Callback) : undefined;
    const [config, values] = args as [unknown, unknown];
    const cfg = config as QueryConfig;
    const plain = () => query(...args, ...(callback ? [callback] : []));
    if (args.length > 2 || typeof config !== 'object' || config === null || typeof cfg.text !== 'string')
      return plain();
    const params = Array.isArray(values) ? values : (cfg.values ?? []);
    const name = nameFor(cfg, params);
    if (name === undefined) return plain();
    const result = send(cfg, params, name);
    if (!callback) return result;
    result.then(
      (res) => callback(undefined, res),
      (err: unknown) => callback(err),
    );
    return undefined;
  };
}
