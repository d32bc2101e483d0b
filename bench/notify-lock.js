'use strict';
/**
 * Why the outbox relays are not woken by PostgreSQL's NOTIFY: a loop of small transactions (BEGIN, INSERT of one
 * 200-byte row, COMMIT) on BENCH_CONNECTIONS connections (default 32) for 10 s, without and then with an insert
 * trigger that NOTIFYs a listened channel, twice each. A NOTIFY takes a cluster-wide lock from its commit's
 * pre-commit to its end, so notifying commits queue behind each other. Prints commits a second; a throwaway database.
 */
const { Client, Pool } = require('pg');

const ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SECONDS = 10;
const NAME = `bench_notify_${process.pid}`;
const out = (line) => process.stdout.write(`${line}\n`);

async function main() {
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${NAME}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${NAME}`;
  const setup = new Client({ connectionString: url.href });
  const listener = new Client({ connectionString: url.href });
  const pool = new Pool({ connectionString: url.href, max: CONNECTIONS });
  // The database is dropped with FORCE at the end: a connection still closing must not crash the run.
  pool.on('error', () => undefined);
  try {
    await setup.connect();
    await setup.query('CREATE TABLE rows_in (id bigserial PRIMARY KEY, payload bytea NOT NULL)');
    await setup.query(
      `CREATE FUNCTION wake() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_notify('outbox', ''); RETURN NULL; END $$`,
    );
    await listener.connect();
    await listener.query('LISTEN outbox');
    const run = async () => {
      let commits = 0;
      const end = Date.now() + SECONDS * 1000;
      await Promise.all(
        Array.from({ length: CONNECTIONS }, async () => {
          const client = await pool.connect();
          try {
            while (Date.now() < end) {
              await client.query('BEGIN');
              await client.query('INSERT INTO rows_in (payload) VALUES ($1)', [Buffer.alloc(200)]);
              await client.query('COMMIT');
              commits++;
            }
          } finally {
            client.release();
          }
        }),
      );
      return commits / SECONDS;
    };
    for (const round of [1, 2]) {
      await setup.query('DROP TRIGGER IF EXISTS wake ON rows_in');
      out(`round ${round}, no trigger:     ${(await run()).toFixed(0)} commits/s`);
      await setup.query(
        'CREATE TRIGGER wake AFTER INSERT ON rows_in FOR EACH STATEMENT EXECUTE FUNCTION wake()',
      );
      out(`round ${round}, NOTIFY trigger: ${(await run()).toFixed(0)} commits/s`);
    }
  } finally {
    await pool.end();
    await listener.end().catch(() => undefined);
    await setup.end().catch(() => undefined);
    await admin.query(`DROP DATABASE IF EXISTS ${NAME} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
