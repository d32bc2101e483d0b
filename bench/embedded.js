'use strict';
/**
 * `node bench/embedded.js` (after `make build`): what `make start` costs on this machine with the embedded
 * PostgreSQL server.
 *
 *   1. ready time of the all-in-one launcher on a fresh DATA_DIR and again on the same folder (restart),
 *      from spawning `node deploy/all-in-one/dist/main.js` to its "Readiness is running at" line;
 *   2. memory with every service idle: RSS and PSS (from /proc/<pid>/smaps_rollup, Linux only) summed over
 *      the node process and every PostgreSQL process below it;
 *   3. event-loop responsiveness during a database burst: 10 ms timer ticks counted in this process while
 *      it runs a 5 s burst of inserts and selects through node-postgres against the embedded server.
 *
 * Results replace this benchmark's section of docs/benchmarks.md and are printed.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { descendants, startAllInOne, writeSection } = require('./lib');

const ROOT = path.resolve(__dirname, '..');
const KIT = path.join(ROOT, 'packages', 'kit', 'dist');
const RESULTS_FILE = path.join(ROOT, 'docs', 'benchmarks.md');
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 15);
const BURST_SECONDS = 5;
const BURST_CONCURRENCY = 16;
const out = (line = '') => process.stdout.write(`${line}\n`);
const mb = (kb) => (kb / 1024).toFixed(0);

function memory(root) {
  const totals = { node: { rss: 0, pss: 0 }, postgres: { rss: 0, pss: 0, processes: 0 } };
  for (const pid of [root, ...descendants(root)]) {
    try {
      const comm = fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? 0);
      const bucket = comm === 'postgres' ? totals.postgres : totals.node;
      bucket.rss += field('Rss');
      bucket.pss += field('Pss');
      if (comm === 'postgres') totals.postgres.processes += 1;
    } catch {
      // exited meanwhile
    }
  }
  return totals;
}

async function burst() {
  const { startEmbeddedPostgres } = require(path.join(ROOT, 'packages/dev-servers/dist'));
  const { openDatabase } = require(path.join(KIT, 'db'));
  const { createLogger } = require(path.join(KIT, 'logger'));
  const { sql } = require('drizzle-orm');
  const logger = createLogger({ name: 'bench', level: 'silent' });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-burst-'));
  fs.chmodSync(dataDir, 0o755);
  const server = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'postgres'), logger });
  const database = await openDatabase({ url: await server.ensureDatabase('bench'), logger, poolMax: 10 });
  try {
    await database.execute(sql`CREATE TABLE notes (id serial PRIMARY KEY, body text NOT NULL)`);
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 10);
    const deadline = Date.now() + BURST_SECONDS * 1000;
    let queries = 0;
    await Promise.all(
      Array.from({ length: BURST_CONCURRENCY }, async () => {
        while (Date.now() < deadline) {
          await database.execute(sql`INSERT INTO notes (body) VALUES (${'x'.repeat(200)})`);
          await database.execute(
            sql`SELECT count(*) FROM notes WHERE id > (SELECT max(id) - 100 FROM notes)`,
          );
          queries += 2;
        }
      }),
    );
    clearInterval(timer);
    return { ticks, expected: (BURST_SECONDS * 1000) / 10, queriesPerSecond: queries / BURST_SECONDS };
  } finally {
    await database.close();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  if (!fs.existsSync(path.join(ROOT, 'deploy/all-in-one/dist/main.js')))
    throw new Error('run `make build` first');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-start-'));
  // As root the embedded PostgreSQL runs as nobody, which must reach the folder (mkdtemp makes it 0700).
  fs.chmodSync(dataDir, 0o755);
  const load = os.loadavg()[0];
  try {
    const first = await startAllInOne(dataDir);
    out(`fresh folder: ready in ${first.readyMs.toFixed(0)} ms`);
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
    const idle = memory(first.child.pid);
    out(`idle: ${JSON.stringify(idle)}`);
    await first.stop();
    const second = await startAllInOne(dataDir);
    out(`restart: ready in ${second.readyMs.toFixed(0)} ms`);
    await second.stop();
    const b = await burst();
    out(`burst: ${b.ticks}/${b.expected} ticks, ${b.queriesPerSecond.toFixed(0)} queries/s`);

    const total = { rss: idle.node.rss + idle.postgres.rss, pss: idle.node.pss + idle.postgres.pss };
    writeSection(
      RESULTS_FILE,
      'embedded-start',
      `## \`make start\`: embedded PostgreSQL, memory and start-up

Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${os.availableParallelism()} cores, Node ${process.version}, load average ${load.toFixed(2)}
at the start, with \`node bench/embedded.js\` after \`make build\`. The launcher (\`deploy/all-in-one/dist/main.js\`,
\`LOG_LEVEL=warn\`) runs every service (auth, notification, gateway) in one node process and one embedded
PostgreSQL 17 server with a database per service. Ready = from spawning the launcher to its "Readiness is running
at" line. Memory = \`Rss\` and \`Pss\` from \`/proc/<pid>/smaps_rollup\`, summed over the node process and every
PostgreSQL process below it, after ${IDLE_SECONDS} s idle.

| Measurement | Result | Goal |
| --- | --- | --- |
| Ready on a fresh DATA_DIR (initdb, databases, migrations, first admin) | ${(first.readyMs / 1000).toFixed(1)} s | < 10 s |
| Ready on restart (same DATA_DIR) | ${(second.readyMs / 1000).toFixed(1)} s | < 3 s |
| Idle RSS in all: node + ${idle.postgres.processes} PostgreSQL processes | ${mb(total.rss)} MB (node ${mb(idle.node.rss)}, PostgreSQL ${mb(idle.postgres.rss)}) | < 600 MB |
| Idle PSS in all (shared pages counted once) | ${mb(total.pss)} MB (node ${mb(idle.node.pss)}, PostgreSQL ${mb(idle.postgres.pss)}) | — |
| 10 ms timer ticks in the node process during a ${BURST_SECONDS} s query burst (${BURST_CONCURRENCY} concurrent insert + select loops, ${b.queriesPerSecond.toFixed(0)} queries/s) | ${b.ticks} of ${b.expected} | responsive |

- Before, with one PGlite per service in the launcher's process, the same machine kind measured about 0.42 GB
  RSS for one service, 0.82 GB for three and 1.26 GB for six, 10.8 s to open six on a fresh folder, and 0 of
  500 timer ticks in 5 s while one PGlite ran a query burst: PGlite runs the database on the node thread,
  node-postgres only waits on a socket while the server works in its own processes.
- RSS counts PostgreSQL's shared buffers and the shared libraries in every process that touched them; PSS
  divides shared pages among the processes, so it is the better sum. Another service adds a database (about
  8 MB on disk) and, while it is busy, pool connections of a few MB each, not another server.
- PostgreSQL runs with \`fsync\` on and \`shared_buffers=32MB\`; the ticks figure is lower on a machine whose
  cores the server and node share under load than on an idle one.
- Where start-up time goes (timestamps of the launcher's log at \`LOG_LEVEL=info\`, load about 12): loading the
  services' modules takes about 2.5 s before \`main\` runs (the largest: s3rver, mailparser, drizzle-orm, minio,
  express); on a fresh folder \`initdb\` takes about 3 s (it runs with \`--no-sync\` and the folder is flushed by
  \`initdb --sync-only\` in the background while the services start; a clean stop waits for it), then each
  database, its migrations, the token key and the first admin about 1.5 s in all. On restart the server
  accepts connections about 0.15 s after it is spawned.`,
    );
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
