'use strict';
/**
 * The database's share of a run, per service database: statements (calls, planning and execution time, WAL) from
 * `pg_stat_statements`, commits from `pg_stat_database`, row updates (and how many were HOT) and autovacuum runs from
 * `pg_stat_user_tables`, and the cluster's WAL from `pg_stat_wal`. A snapshot before and one after; `diff` gives what
 * happened between them.
 *
 * `pg_stat_statements` must be in `shared_preload_libraries`, which a running server cannot be given without a
 * restart: the machine's shared PostgreSQL is not restarted for a bench, so `startOwnPostgres` runs a cluster of the
 * bench's own (Debian's binaries, a temporary folder, a free port) with the library preloaded. Against a server
 * without it the statement split is left out and the output says so.
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { freePort, withClient } = require('./lib');

const PG_BIN = process.env.BENCH_PG_BIN ?? '/usr/lib/postgresql/15/bin';

/**
 * The shared server's settings that shape the figures (no fsync or full-page writes, commits not waited for, 128 MB
 * of shared buffers, 100 connections), so a run on the bench's own cluster compares with one on the shared server;
 * autovacuum runs, as it does in production (the shared server has it off).
 */
const SETTINGS = {
  listen_addresses: '127.0.0.1',
  max_connections: '100',
  shared_buffers: '128MB',
  fsync: 'off',
  full_page_writes: 'off',
  synchronous_commit: 'off',
  autovacuum: 'on',
  shared_preload_libraries: 'pg_stat_statements',
  'pg_stat_statements.track_planning': 'on',
  'pg_stat_statements.max': '10000',
  log_autovacuum_min_duration: '0',
  log_line_prefix: '%m [%p] ',
  log_timezone: 'UTC',
  timezone: 'UTC',
};

/** Whether this machine has the binaries `startOwnPostgres` needs. */
const canRunOwnPostgres = () => fs.existsSync(path.join(PG_BIN, 'initdb'));

/**
 * A PostgreSQL cluster of the bench's own in a temporary folder, on a free port, with `pg_stat_statements` preloaded.
 * Answers its admin URL, its postmaster's pid (every process of the cluster is below it), its log and `stop()`.
 */
async function startOwnPostgres() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-pg-'));
  const data = path.join(dir, 'data');
  const port = await freePort();
  const log = path.join(dir, 'postgres.log');
  // PostgreSQL refuses to run as root: as root, the cluster is the `postgres` user's, as Debian's own is.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { uid, gid } = postgresUser();
    fs.chownSync(dir, uid, gid);
  }
  const pgCommand = (cmd, args) =>
    asRoot
      ? spawnSync('runuser', ['-u', 'postgres', '--', path.join(PG_BIN, cmd), ...args], { encoding: 'utf8' })
      : spawnSync(path.join(PG_BIN, cmd), args, { encoding: 'utf8' });
  const run = (cmd, args) => {
    const r = pgCommand(cmd, args);
    if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr || r.stdout}`);
  };
  try {
    run('initdb', [
      '-D',
      data,
      '-U',
      'postgres',
      '--auth=trust',
      '--no-sync',
      '-E',
      'UTF8',
      '--locale=C.UTF-8',
    ]);
    fs.appendFileSync(
      path.join(data, 'postgresql.conf'),
      Object.entries(SETTINGS)
        .map(([k, v]) => `${k} = '${v}'\n`)
        .join(''),
    );
    run('pg_ctl', ['-D', data, '-l', log, '-o', `-p ${port} -k ${dir}`, '-w', '-t', '60', 'start']);
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const pid = Number(fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  await withClient(url, (c) => c.query('CREATE EXTENSION pg_stat_statements'));
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    pgCommand('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  // Synchronous, so it also runs when the bench fails and exits before its own clean-up.
  process.once('exit', stop);
  return { url, pid, log, settings: SETTINGS, stop };
}

/** The uid and gid of the `postgres` user, from /etc/passwd. */
function postgresUser() {
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new Error('running as root and no postgres user to run PostgreSQL as');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

const dbUrl = (adminUrl, database) => {
  const u = new URL(adminUrl);
  u.pathname = `/${encodeURIComponent(database)}`;
  return u.toString();
};

/**
 * The counters of `databases` (name → database) so far. `statements` is undefined when the server does not have
 * `pg_stat_statements` loaded.
 */
async function snapshot(adminUrl, databases) {
  return withClient(adminUrl, async (admin) => {
    const commits = Object.fromEntries(
      (
        await admin.query(
          'SELECT datname, xact_commit::bigint AS n FROM pg_stat_database WHERE datname = ANY($1::text[])',
          [Object.values(databases)],
        )
      ).rows.map((r) => [r.datname, Number(r.n)]),
    );
    const wal = (
      await admin.query(
        `SELECT wal_records::bigint AS records, wal_bytes::bigint AS bytes, wal_fpi::bigint AS fpi,
                pg_current_wal_lsn() - '0/0'::pg_lsn AS lsn FROM pg_stat_wal`,
      )
    ).rows[0];
    let statements;
    try {
      // Per statement, so that the top ones can be named; the sums per database follow from them. The bench's own
      // reads of the statistics views are left out.
      statements = (
        await admin.query(
          `SELECT d.datname, s.queryid::text AS id, s.toplevel, s.query, s.calls::bigint AS calls,
                  s.total_plan_time AS plan, s.plans::bigint AS plans, s.total_exec_time AS exec,
                  s.rows::bigint AS rows, s.wal_records::bigint AS wal_records, s.wal_bytes::bigint AS wal_bytes
             FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
            WHERE d.datname = ANY($1::text[]) AND s.query NOT LIKE '%pg\\_stat\\_%'`,
          [Object.values(databases)],
        )
      ).rows;
    } catch {
      statements = undefined;
    }
    const tables = {};
    for (const [service, database] of Object.entries(databases)) {
      tables[service] = await withClient(dbUrl(adminUrl, database), async (c) =>
        Object.fromEntries(
          (
            await c.query(
              `SELECT relname, n_tup_ins::bigint AS ins, n_tup_upd::bigint AS upd, n_tup_hot_upd::bigint AS hot,
                      n_tup_del::bigint AS del, autovacuum_count::bigint AS vacuums,
                      autoanalyze_count::bigint AS analyzes
                 FROM pg_stat_user_tables`,
            )
          ).rows.map((r) => [
            r.relname,
            Object.fromEntries(
              Object.entries(r)
                .filter(([k]) => k !== 'relname')
                .map(([k, v]) => [k, Number(v)]),
            ),
          ]),
        ),
      );
    }
    return { at: Date.now(), commits, wal, statements, tables };
  });
}

/**
 * What happened between two snapshots, per service database and per journey (`journeys`): statements, planning and
 * execution milliseconds, WAL, commits, updates and HOT updates by table, autovacuum runs; the cluster's WAL.
 */
function diff(before, after, databases, journeys) {
  const key = (s) => `${s.datname} ${s.id} ${s.toplevel}`;
  const earlier = new Map((before.statements ?? []).map((s) => [key(s), s]));
  const statementDeltas = (after.statements ?? []).map((s) => {
    const b = earlier.get(key(s));
    const d = (field) => Number(s[field]) - Number(b?.[field] ?? 0);
    return {
      datname: s.datname,
      query: s.query,
      calls: d('calls'),
      planMs: d('plan'),
      execMs: d('exec'),
      rows: d('rows'),
      walBytes: d('wal_bytes'),
      walRecords: d('wal_records'),
    };
  });
  const per = (v) => v / journeys;
  const services = {};
  for (const [service, database] of Object.entries(databases)) {
    const mine = statementDeltas.filter((s) => s.datname === database && s.calls > 0);
    const sum = (field) => mine.reduce((a, s) => a + s[field], 0);
    const tables = {};
    for (const [name, t] of Object.entries(after.tables[service] ?? {})) {
      const b = before.tables[service]?.[name] ?? {};
      const d = Object.fromEntries(Object.entries(t).map(([k, v]) => [k, v - (b[k] ?? 0)]));
      if (Object.values(d).some((v) => v !== 0)) tables[name] = d;
    }
    services[service] = {
      commits: per((after.commits[database] ?? 0) - (before.commits[database] ?? 0)),
      ...(after.statements
        ? {
            calls: per(sum('calls')),
            planMs: per(sum('planMs')),
            execMs: per(sum('execMs')),
            walBytes: per(sum('walBytes')),
            walRecords: per(sum('walRecords')),
          }
        : {}),
      autovacuums: Object.values(tables).reduce((a, t) => a + t.vacuums, 0),
      autoanalyzes: Object.values(tables).reduce((a, t) => a + t.analyzes, 0),
      tables,
    };
  }
  const top = after.statements
    ? statementDeltas
        .filter((s) => s.calls > 0)
        .sort((a, b) => b.planMs + b.execMs - (a.planMs + a.execMs))
        .slice(0, 10)
        .map((s) => ({
          service: Object.keys(databases).find((k) => databases[k] === s.datname),
          query: s.query.replace(/\s+/g, ' ').slice(0, 160),
          callsPerJourney: per(s.calls),
          msPerJourney: per(s.planMs + s.execMs),
          planMsPerJourney: per(s.planMs),
        }))
    : undefined;
  return {
    statementsAvailable: Boolean(after.statements),
    seconds: (after.at - before.at) / 1000,
    cluster: {
      walBytes: per(Number(after.wal.bytes) - Number(before.wal.bytes)),
      walRecords: per(Number(after.wal.records) - Number(before.wal.records)),
      walFpi: per(Number(after.wal.fpi) - Number(before.wal.fpi)),
      lsnBytes: per(Number(after.wal.lsn) - Number(before.wal.lsn)),
    },
    services,
    top,
  };
}

/**
 * The autovacuum runs the cluster's log recorded between `from` and `to` (ms since the epoch), with the CPU and
 * elapsed time each reported (`log_autovacuum_min_duration = 0`), by table.
 */
function autovacuumLog(logFile, from, to) {
  let text;
  try {
    text = fs.readFileSync(logFile, 'utf8');
  } catch {
    return undefined;
  }
  const runs = [];
  const entry =
    /^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+) UTC \[\d+\] LOG:\s+automatic (vacuum|analyze) of table "([^"]+)"([\s\S]*?)(?=^\d{4}-\d\d-\d\d |(?![\s\S]))/gm;
  for (const m of text.matchAll(entry)) {
    const at = Date.parse(`${m[1].replace(' ', 'T')}Z`);
    if (at < from || at > to) continue;
    const cpu = /CPU: user: ([\d.]+) s, system: ([\d.]+) s, elapsed: ([\d.]+) s/.exec(m[4]);
    runs.push({
      kind: m[2],
      table: m[3],
      cpuS: cpu ? Number(cpu[1]) + Number(cpu[2]) : 0,
      elapsedS: cpu ? Number(cpu[3]) : 0,
    });
  }
  return runs;
}

/** HOT updates as a share of updates, as text: `83 % of 1,204`; `–` when the table had no update. */
const hotRatio = (t) =>
  t && t.upd > 0 ? `${((100 * t.hot) / t.upd).toFixed(0)} % of ${t.upd.toLocaleString('en')}` : '–';

module.exports = { canRunOwnPostgres, startOwnPostgres, snapshot, diff, autovacuumLog, hotRatio };
