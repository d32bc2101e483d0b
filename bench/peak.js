'use strict';
/**
 * `make bench`, the enrolment peak: BENCH_STUDENTS students (default 5,000) invited by one CSV import; within
 * BENCH_WINDOW_SECONDS (60) every one opens the link, loads the assessment, starts, autosaves three times at
 * realistic pauses, uploads one small file and submits; half pass. The product runs as the local stack (one process
 * per service from its `dist`, PostgreSQL, RabbitMQ and Redis on this machine); the load comes from BENCH_WORKERS
 * separate processes (`peak-worker.js`).
 *
 * Measured in the same run: each call's p50/p95/p99 and errors; the time until every result is recorded and every
 * certificate mailed; CPU and memory of each process; the effects counted where they live (one attempt, one result,
 * one certificate and one mail per student, nothing dead-lettered); the commits, events and deliveries per journey;
 * the bare journey (`bare-journey.js`: the same students, arrivals and calls doing only the work the product needs by
 * design) and the headline, product CPU per journey ÷ bare CPU per journey; the database round trips and calls to other
 * services of one assessment load; the submit accept rate against a bare Express POST + INSERT; the certificate
 * pipeline against a bare puppeteer-core loop with the same pool; the database per journey and per service database
 * (statements, planning and execution time, WAL, commits, autovacuum, the share of HOT updates: database-split.js),
 * on a PostgreSQL cluster of the bench's own unless BENCH_PG_URL names a server. Results replace the `enrolment-peak`
 * section of docs/benchmarks.md (also written as JSON to test-results/peak.json).
 */
const { fork } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const autocannon = require('autocannon');
const { Pool, Client } = require('pg');
const {
  freePort,
  startNode,
  stopAll,
  waitUntilReady,
  writeSection,
  descendants,
  metricSum,
  metricSeries,
  api,
  answerSheet,
  importStudents,
  cpuSeconds: cpuSecondsOf,
  serverPids,
  postgresPids,
  committed,
  brokerCounts,
  deadLetterCount,
  runOrder,
  summarise,
  byWindow,
  percentile,
  JOURNEY_PAUSES,
} = require('./lib');
const { runBareJourney, bareProcessRows, bareCountRows } = require('./bare-journey');
const databaseSplit = require('./database-split');

/** CPU seconds of a process so far; 0 for one that has ended (its share is then lost to the count). */
const cpuSeconds = (pid, reaped = false) => cpuSecondsOf(pid, reaped) ?? 0;
const { bareLoop, treePssMb } = require('./pdf');

const ROOT = path.resolve(__dirname, '..');
for (const f of ['deploy/all-in-one/dist/local-stack.js', 'services/report/dist/index.js']) {
  if (!fs.existsSync(path.join(ROOT, f))) throw new Error(`${f} is missing: run \`make build\` first`);
}
const { startLocalStack } = require(path.join(ROOT, 'deploy/all-in-one/dist/local-stack'));
const ownBroker = require('./own-broker');
const { loadFontFaces } = require(path.join(ROOT, 'services/report/dist/domain/templates/fonts'));
const { chooseBrowser } = require(path.join(ROOT, 'services/report/dist/rendering/browser-choice'));
const { createLogger } = require(path.join(ROOT, 'packages/kit/dist/logger'));

const N = Number(process.env.BENCH_STUDENTS ?? 5000);
const WINDOW_S = Number(process.env.BENCH_WINDOW_SECONDS ?? 60);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);
const SUBMIT_N = Number(process.env.BENCH_SUBMIT_STUDENTS ?? 2000);
const SUBMIT_CONCURRENCY = Number(process.env.BENCH_SUBMIT_CONCURRENCY ?? 32);
const STUDENT_POOL = process.env.BENCH_STUDENT_POOL_MAX;
const DRAIN_TIMEOUT_S = Number(process.env.BENCH_DRAIN_TIMEOUT_SECONDS ?? 900);
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR;
const PDF_IDLE_SECONDS = Number(process.env.PDF_BROWSER_IDLE_SECONDS ?? 60);
/** How long the statements of the idle services are counted after the peak. */
const IDLE_STATEMENTS_S = 60;
const RESULTS_FILE = path.join(ROOT, 'docs', 'benchmarks.md');
const JSON_FILE = path.join(ROOT, 'test-results', `peak-${N}.json`);
/**
 * Without BENCH_PG_URL the peak runs a PostgreSQL cluster of its own with `pg_stat_statements` preloaded, for the
 * database's statement split (database-split.js); BENCH_OWN_POSTGRES=0 runs it on the machine's server instead.
 */
const OWN_POSTGRES =
  process.env.BENCH_PG_URL === undefined &&
  process.env.BENCH_OWN_POSTGRES !== '0' &&
  databaseSplit.canRunOwnPostgres();
/**
 * The peak also runs a RabbitMQ node of its own, with the development cluster's broker settings (own-broker.js: the
 * management statistics collector and rates off, queues reporting every 30 s); BENCH_OWN_RABBITMQ=0 runs it on the
 * machine's broker instead.
 */
const OWN_RABBITMQ = ownBroker.wantsOwnBroker();
/** Read when used: set to the bench's own cluster once it runs. */
const pgAdminUrl = () => process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ADMIN = { email: 'bench-admin@example.edu', password: 'enrolment-peak-admin-password' };
const SERVICES = [
  'gateway',
  'auth',
  'assessment',
  'student',
  'results',
  'report',
  'notification',
  'integrations',
];
const CERTIFICATE_SUBJECT = 'Congratulations! Your certificate';
const INVITATION_SUBJECT = 'You are invited';
/** Pauses of a student between steps (ms): reading a section, finding the file, checking before submitting. */
const PAUSES = JOURNEY_PAUSES;
/** Students arrive over the first part of the window, so the slowest journey (≈ 26 s of pauses) ends inside it. */
const ARRIVAL_S = Math.max(1, WINDOW_S - 30);

const out = (line = '') => process.stdout.write(`${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms) => (ms / 1000).toFixed(1);

// ---------------------------------------------------------------------------------------------------------------
// Processes: CPU and memory from /proc.

function rssMb(pid) {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
  } catch {
    return 0;
  }
}
/**
 * CPU of each watched process group between `start()` and `stop()`, and the largest memory seen meanwhile. A group's
 * processes are listed again at each reading (PostgreSQL forks a backend per new connection): each counts from its
 * reading at `start()`, or from zero when it began later.
 */
function processWatch(groups) {
  const base = new Map();
  // Chromium's renderers end when their page is replaced: their CPU is found in the parent that waited for them.
  const reaped = (name) => name === 'Chromium';
  const cpu = (pids, name) =>
    pids().reduce((sum, pid) => sum + cpuSeconds(pid, reaped(name)) - (base.get(pid) ?? 0), 0);
  const memory = (name, pids) => (name === 'report' ? treePssMb(pids()[0]) : rssMb(pids()[0]));
  let startCpu;
  const peak = {};
  let timer;
  return {
    start() {
      for (const [name, pids] of Object.entries(groups))
        for (const pid of pids()) base.set(pid, cpuSeconds(pid, reaped(name)));
      startCpu = Object.fromEntries(Object.entries(groups).map(([n, pids]) => [n, cpu(pids, n)]));
      timer = setInterval(() => {
        for (const [name, pids] of Object.entries(groups)) {
          if (!SERVICES.includes(name)) continue;
          peak[name] = Math.max(peak[name] ?? 0, memory(name, pids));
        }
      }, 1_000);
    },
    stop() {
      clearInterval(timer);
      return Object.fromEntries(
        Object.entries(groups).map(([n, pids]) => [
          n,
          { cpuSeconds: cpu(pids, n) - startCpu[n], peakMb: peak[n] },
        ]),
      );
    },
    idle: () =>
      Object.fromEntries(
        SERVICES.map((n) => [n, { rssMb: rssMb(groups[n]()[0]), pssTreeMb: treePssMb(groups[n]()[0]) }]),
      ),
  };
}

/** Where an idle service's memory is: its V8 heap (used and held) and the buffers outside it, from its /metrics. */
async function heapFigures(stack) {
  const mb = async (s, name) => (await metricSum(stack.service(s).internalUrl, name)) / 2 ** 20;
  const entries = await Promise.all(
    SERVICES.map(async (s) => [
      s,
      {
        used: await mb(s, 'nodejs_heap_size_used_bytes'),
        total: await mb(s, 'nodejs_heap_size_total_bytes'),
        external: await mb(s, 'nodejs_external_memory_bytes'),
      },
    ]),
  );
  return Object.fromEntries(entries);
}

// ---------------------------------------------------------------------------------------------------------------
// The product's API, as the institution's admin uses it.

const mailsTo = (stack, domain, subject) =>
  stack.mail
    .list()
    .filter((m) => m.subject.startsWith(subject) && m.to.some((t) => t.endsWith(`@${domain}`)));

async function waitFor(what, timeoutS, check) {
  const deadline = Date.now() + timeoutS * 1000;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutS} s`);
    await sleep(250);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Load processes.

function startWorkers() {
  return Array.from({ length: WORKERS }, () =>
    fork(path.join(__dirname, 'peak-worker.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Effects and counters.

async function effects(pools, students) {
  const ids = students.map((s) => s.id);
  const one = async (pool, text) => (await pool.query(text, [ids])).rows[0];
  const attempts = await one(
    pools.student,
    `SELECT count(*)::int AS n, count(DISTINCT student_id)::int AS students,
            count(*) FILTER (WHERE status IN ('submitted', 'scored'))::int AS submitted
       FROM attempts WHERE student_id = ANY($1::uuid[])`,
  );
  const results = await one(
    pools.results,
    `SELECT count(*)::int AS n, count(DISTINCT student_id)::int AS students,
            count(*) FILTER (WHERE passed)::int AS passed
       FROM results WHERE student_id = ANY($1::text[])`,
  );
  const certificates = await one(
    pools.report,
    `SELECT count(*)::int AS n, count(DISTINCT student_id)::int AS students,
            count(*) FILTER (WHERE status = 'issued')::int AS issued
       FROM certificates WHERE student_id = ANY($1::text[])`,
  );
  return { attempts, results, certificates };
}

/** Payload bytes each event carried over the bus so far, summed over the services (`outbox_published_bytes_total`). */
async function busBytes(stack) {
  const byEvent = {};
  for (const s of SERVICES.filter((name) => name !== 'gateway')) {
    for (const { labels, value } of await metricSeries(
      stack.service(s).internalUrl,
      'outbox_published_bytes_total',
    ))
      byEvent[labels.event] = (byEvent[labels.event] ?? 0) + value;
  }
  return byEvent;
}

/**
 * Statements the student service sends and requests every other service handles while `count` assessment loads run
 * one after another, less the same counters over the same time with no load (the deadline job, the relays).
 */
async function loadCost(stack, tokens, count) {
  const others = SERVICES.filter((s) => s !== 'gateway' && s !== 'student');
  const read = async () => ({
    queries: await metricSum(stack.service('student').internalUrl, 'db_queries_total'),
    requests: (
      await Promise.all(
        others.map((s) => metricSum(stack.service(s).internalUrl, 'http_request_duration_seconds_count')),
      )
    ).reduce((a, b) => a + b, 0),
  });
  // What the peak set off must be over first (the student service keeps each certificate's link after its mail
  // went out): wait until its statements stop moving, at most two minutes.
  const giveUpAt = Date.now() + 120_000;
  let last = (await read()).queries;
  let movedAt = Date.now();
  while (Date.now() - movedAt < 3000 && Date.now() < giveUpAt) {
    await sleep(1000);
    const now = (await read()).queries;
    if (now - last > 1) movedAt = Date.now();
    last = now;
  }
  const idleStart = await read();
  const t0 = Date.now();
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${stack.gatewayUrl}/api/student/${tokens[i % tokens.length]}/assessment`);
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`assessment load answered ${res.status}`);
  }
  const busyMs = Date.now() - t0;
  const afterLoads = await read();
  await sleep(busyMs);
  const idleEnd = await read();
  const idleQueries = idleEnd.queries - afterLoads.queries;
  const idleRequests = idleEnd.requests - afterLoads.requests;
  return {
    loads: count,
    queriesPerLoad: (afterLoads.queries - idleStart.queries - idleQueries) / count,
    otherServiceRequests: afterLoads.requests - idleStart.requests - idleRequests,
    idleQueries,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Baselines.

async function barePostInsert() {
  const name = `bench_insert_${process.pid}`;
  const admin = new Client({ connectionString: pgAdminUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(pgAdminUrl());
  url.pathname = `/${name}`;
  const port = await freePort();
  const log = path.join(os.tmpdir(), `bench-insert-${process.pid}.log`);
  const server = startNode(
    'bare POST + INSERT',
    path.join(__dirname, 'baseline-insert.js'),
    { PORT: String(port), DATABASE_URL: url.toString() },
    log,
  );
  try {
    await waitUntilReady(server, `http://127.0.0.1:${port}/health`, 30_000);
    const options = {
      url: `http://127.0.0.1:${port}/submit`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        attemptId: crypto.randomUUID(),
        answers: Array.from({ length: 12 }, (_, i) => ({ questionId: `q${i}`, answer: 'yes' })),
        timeSpent: 1,
        startedAt: new Date().toISOString(),
      }),
      connections: SUBMIT_CONCURRENCY,
    };
    await autocannon({ ...options, duration: 2 });
    const cpu0 = cpuSeconds(server.child.pid);
    const r = await autocannon({ ...options, duration: 8 });
    const failed = r.non2xx + r.errors + r.timeouts;
    return {
      perSecond: r['2xx'] / r.duration,
      p50: r.latency.p50,
      p99: r.latency.p99,
      failed,
      cpuMsPerRequest: ((cpuSeconds(server.child.pid) - cpu0) * 1000) / r['2xx'],
    };
  } finally {
    await stopAll();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

// ---------------------------------------------------------------------------------------------------------------

async function main() {
  const startedAt = new Date();
  const load = os.loadavg()[0];
  out(
    `Enrolment peak: ${N} students in ${WINDOW_S} s, ${WORKERS} load processes, ${os.availableParallelism()} cores, load ${load.toFixed(2)}`,
  );
  let ownPostgres;
  if (OWN_POSTGRES) {
    ownPostgres = await databaseSplit.startOwnPostgres();
    process.env.BENCH_PG_URL = ownPostgres.url;
    process.env.BENCH_PG_POSTMASTER = String(ownPostgres.pid);
    out(`PostgreSQL: a cluster of the bench's own (${ownPostgres.url}), pg_stat_statements preloaded`);
  }
  let broker;
  if (OWN_RABBITMQ) {
    broker = await ownBroker.useOwnBroker();
    out(`RabbitMQ: a node of the bench's own (${broker.amqpUrl}): ${JSON.stringify(broker.settings)}`);
  }
  const vhost = await ownBroker.benchVhost('peak');
  const stack = await startLocalStack({
    name: `bench_peak_${process.pid}`,
    isolate: true,
    ports: 'free',
    pgUrl: pgAdminUrl(),
    amqpUrl: vhost.url,
    redisUrl: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/13',
    output: 'buffer',
    env: { LOG_LEVEL: 'warn' },
    nodeArgs: PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [],
    serviceEnv: {
      auth: { SEED_ADMIN_EMAIL: ADMIN.email, SEED_ADMIN_PASSWORD: ADMIN.password },
      // The whole load comes from one address: the per-address limits would refuse the second classroom.
      gateway: {
        RATE_LIMIT_API: '100000000',
        RATE_LIMIT_STUDENT: '100000000',
        RATE_LIMIT_STUDENT_WRITES: '100000000',
        LINE_STREAMS_PER_ADDRESS: '100000000',
      },
      ...(STUDENT_POOL ? { student: { DATABASE_POOL_MAX: STUDENT_POOL } } : {}),
    },
  });
  const pools = {};
  const workers = [];
  // Interrupted (Ctrl-C, a CI timeout): the services are this run's children, stopped with it, not left running.
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      out(`\n${signal}: stopping the stack`);
      for (const w of workers) w.kill();
      void stack.stop().finally(() => {
        ownPostgres?.stop();
        broker?.stop();
        process.exit(130);
      });
    });
  }
  const figures = {
    startedAt: startedAt.toISOString(),
    students: N,
    windowSeconds: WINDOW_S,
    workers: WORKERS,
    cores: os.availableParallelism(),
    loadAverage: load,
    ownPostgres: ownPostgres ? ownPostgres.settings : undefined,
    ownBroker: broker ? broker.settings : undefined,
  };
  try {
    for (const s of ['student', 'results', 'report'])
      pools[s] = new Pool({ connectionString: stack.service(s).databaseUrl, max: 2 });
    // The bench's own statements (the effects it counts while it waits) are commits too: counted, then taken off.
    let benchStatements = 0;
    for (const pool of Object.values(pools)) {
      const query = pool.query.bind(pool);
      pool.query = (...args) => {
        benchStatements += 1;
        return query(...args);
      };
    }
    const groups = Object.fromEntries(SERVICES.map((s) => [s, () => [stack.service(s).pid]]));
    groups.Chromium = () => descendants(stack.service('report').pid);
    // PostgreSQL: the backends of the stack's own databases and the server's shared processes, not the backends of
    // other databases (other runs and tests on a shared machine).
    const databases = SERVICES.flatMap((s) => {
      const url = stack.service(s).databaseUrl;
      return url ? [decodeURIComponent(new URL(url).pathname.slice(1))] : [];
    });
    groups.PostgreSQL = () => postgresPids(databases);
    const databaseOf = Object.fromEntries(
      SERVICES.flatMap((s) => {
        const url = stack.service(s).databaseUrl;
        return url ? [[s, decodeURIComponent(new URL(url).pathname.slice(1))]] : [];
      }),
    );
    for (const name of ['RabbitMQ', 'Redis']) groups[name] = () => serverPids()[name];
    // The stack's one S3 server (s3rver), in a process of its own as a MinIO would be.
    groups['object storage'] = () => [stack.objectStorage.pid];
    groups['load generators'] = () => workers.map((w) => w.pid);
    const watch = processWatch(groups);
    const statements = () =>
      Promise.all(SERVICES.map((s) => metricSum(stack.service(s).internalUrl, 'db_queries_total')));

    const { token } = await api(stack.gatewayUrl, 'POST', '/api/auth/login', { json: ADMIN });
    const sheet = await answerSheet(stack.gatewayUrl, token);
    // Every service up, the seeded version everywhere, the report service's browser started: then idle.
    await sleep(10_000);
    figures.idle = watch.idle();
    figures.heapBefore = await heapFigures(stack);
    out(
      `idle memory: ${SERVICES.map((s) => `${s} ${figures.idle[s].rssMb.toFixed(0)} MB`).join(', ')}; report with its browser ${figures.idle.report.pssTreeMb.toFixed(0)} MB`,
    );

    out(`\n[1/6] CSV import of ${N} students, invitations mailed`);
    const invited = await importStudents(stack.gatewayUrl, token, 'peak', N);
    const invitedAt = Date.now();
    await waitFor(
      'invitation mails',
      DRAIN_TIMEOUT_S,
      () => mailsTo(stack, invited.domain, INVITATION_SUBJECT).length >= N,
    );
    figures.import = {
      importMs: invited.importMs,
      invitationsMailedMs: Date.now() - invitedAt + invited.importMs,
    };
    out(
      `      import ${seconds(invited.importMs)} s, all invitations mailed after ${seconds(figures.import.invitationsMailedMs)} s`,
    );

    out(`\n[2/6] the peak: every student's journey within ${WINDOW_S} s`);
    workers.push(...startWorkers());
    const students = invited.students.map((s) => ({ ...s, arrivalMs: Math.random() * ARRIVAL_S * 1000 }));
    const dlqBefore = await deadLetterCount(vhost.url);
    const statementsBefore = await statements();
    const busBefore = await busBytes(stack);
    // The page a student's load answers, for the bare journey's load to answer the same bytes.
    const page = await (
      await fetch(`${stack.gatewayUrl}/api/student/${invited.students[0].token}/assessment`)
    ).text();
    const commitsBefore = await committed(pgAdminUrl(), databases);
    const databaseBefore = await databaseSplit.snapshot(pgAdminUrl(), databaseOf);
    const brokerBefore = await brokerCounts(stack.vhost);
    const benchStatementsBefore = benchStatements;
    watch.start();
    const t0 = Date.now() + 1_000;
    // The line as the student service saw it, every 5 s: its rate, how many wait, its target against those taking the
    // test as the line counts them (the attempts in progress, and the turns served in the last 10 s), whether a replica
    // is warm or under pressure, and whether the background work yields (the run's log).
    const line = [];
    const lineSampler = setInterval(() => {
      const at = Math.round((Date.now() - t0) / 1000);
      Promise.all([
        ...['admission_per_minute', 'waiting', 'pressure'].map((m) =>
          metricSum(stack.service('student').internalUrl, `student_waiting_room_${m}`),
        ),
        pools.student.query(
          `SELECT round(in_progress_target) AS target, COALESCE(warm_until > now(), false) AS warm,
             (SELECT count(*) FROM attempts WHERE status = 'in_progress')::int AS taking,
             (SELECT count(*) FROM waiting_tickets WHERE admitted_at > now() - interval '10 seconds')::int AS turns
           FROM waiting_room`,
        ),
        metricSum(stack.service('report').internalUrl, 'bus_consumers_yielding'),
      ]).then(
        ([perMinute, waiting, pressure, room, yielding]) => {
          const r = room.rows[0] ?? {};
          line.push(
            `${at}s ${Math.round(perMinute)}/min ${waiting}w T${r.target ?? '-'}/${r.taking ?? '-'}+${r.turns ?? '-'}` +
              `${pressure ? ' P' : r.warm ? ' W' : ''}${yielding ? ' Y' : ''}`,
          );
        },
        () => undefined,
      );
    }, 5_000);
    const peak = await runOrder(workers, students, {
      kind: 'journey',
      gateway: stack.gatewayUrl,
      t0,
      sheet,
      pauses: PAUSES,
    });
    const loadEndMs = Date.now() - t0;
    figures.calls = summarise(peak.calls);
    for (const [name, c] of Object.entries(figures.calls))
      out(
        `      ${name.padEnd(16)} ${String(c.calls).padStart(6)} calls, ${c.errors} errors, p50 ${c.p50?.toFixed(0)} p95 ${c.p95?.toFixed(0)} p99 ${c.p99?.toFixed(0)} ms ${c.errors ? JSON.stringify(c.failures) : ''}`,
      );
    for (const [name, windows] of byWindow(peak.calls, t0, 20_000, [
      'open link',
      'place in line',
      'start',
      'autosave',
      'submit',
    ]))
      out(
        `      ${name} by 20 s (from s: calls, p50/p95/max ms): ${windows.map(([from, n, p50, p95, max]) => `${from}: ${n}, ${p50.toFixed(0)}/${p95.toFixed(0)}/${max.toFixed(0)}`).join('; ')}`,
      );
    clearInterval(lineSampler);
    out(
      `      the line every 5 s (rate, waiting, T: target/attempts in progress+turns of the last 10 s, P: pressure, W: warm, Y: background yields): ${line.join('; ')}`,
    );
    // Where a slow Start spent its time: the time each service itself took to answer it (their histograms).
    for (const service of ['student']) {
      const buckets = (
        await metricSeries(stack.service(service).internalUrl, 'http_request_duration_seconds_bucket')
      )
        .filter((b) => b.labels.method === 'POST' && /start/.test(b.labels.route ?? ''))
        .reduce((acc, b) => ({ ...acc, [b.labels.le]: (acc[b.labels.le] ?? 0) + b.value }), {});
      out(`      ${service}'s own time for Start (requests within le seconds): ${JSON.stringify(buckets)}`);
    }
    // A failed call is told by the service that failed it: its error lines (pino's level labels: error and fatal,
    // and the warnings of a 503), a few per service.
    if (Object.values(figures.calls).some((c) => c.errors > 0)) {
      for (const name of SERVICES) {
        const errorLines = stack
          .output(name)
          .split('\n')
          .filter(
            (line) =>
              /"level":"(error|fatal)"/.test(line) ||
              (/"level":"warn"/.test(line) && /unavailable|503/i.test(line)),
          )
          .slice(0, 3);
        for (const line of errorLines) out(`      ${name} logged: ${line.slice(0, 600)}`);
      }
    }
    const submitted = peak.students.filter((s) => s.submitStatus >= 200 && s.submitStatus < 300);
    const passes = submitted.filter((s) => s.passes).length;
    out(
      `      last student done at ${seconds(loadEndMs)} s; ${submitted.length} submissions accepted (${passes} passing)`,
    );
    // The waiting room: who waited in line before their clock started, and how long.
    const waits = peak.students.filter((s) => s.waitedMs !== undefined).map((s) => s.waitedMs);
    figures.waitingRoom = {
      waited: waits.length,
      p50WaitMs: waits.length
        ? percentile(
            [...waits].sort((a, b) => a - b),
            50,
          )
        : 0,
      longestWaitMs: waits.length ? Math.max(...waits) : 0,
    };
    out(`      waiting room: ${JSON.stringify(figures.waitingRoom)}`);

    const resultsAt = await waitFor('every result recorded', DRAIN_TIMEOUT_S, async () => {
      const { results } = await effects(pools, submitted);
      return results.n >= submitted.length ? Date.now() : undefined;
    });
    const mailedAt = await waitFor('every certificate mailed', DRAIN_TIMEOUT_S, () =>
      mailsTo(stack, invited.domain, CERTIFICATE_SUBJECT).length >= passes ? Date.now() : undefined,
    );
    await sleep(3_000); // anything duplicated late would show now
    figures.processes = watch.stop();
    const benchStatementsDuring = benchStatements - benchStatementsBefore;
    const statementsAfter = await statements();
    // PostgreSQL flushes a backend's counts once it has been idle a while; the management API samples every 5 s.
    await sleep(11_000);
    const brokerAfter = await brokerCounts(stack.vhost);
    figures.journeyCounts = {
      commits: (await committed(pgAdminUrl(), databases)) - commitsBefore - benchStatementsDuring,
      ...(brokerBefore && brokerAfter
        ? Object.fromEntries(Object.keys(brokerAfter).map((k) => [k, brokerAfter[k] - brokerBefore[k]]))
        : {}),
    };
    out(`      counted over ${N} journeys: ${JSON.stringify(figures.journeyCounts)}`);
    figures.database = databaseSplit.diff(
      databaseBefore,
      await databaseSplit.snapshot(pgAdminUrl(), databaseOf),
      databaseOf,
      N,
    );
    if (ownPostgres)
      figures.database.autovacuumRuns = databaseSplit.autovacuumLog(
        ownPostgres.log,
        databaseBefore.at,
        Date.now(),
      );
    for (const line of databaseLines(figures.database)) out(`      ${line}`);
    SERVICES.forEach((s, i) => (figures.processes[s].statements = statementsAfter[i] - statementsBefore[i]));
    const certMails = mailsTo(stack, invited.domain, CERTIFICATE_SUBJECT);
    const firstCertificate = Math.min(...certMails.map((m) => m.date.getTime()));
    const counted = await effects(pools, submitted);
    figures.drain = {
      lastSubmitMs: Math.max(...submitted.map((s) => s.submittedAt)) - t0,
      allResultsMs: resultsAt - t0,
      allCertificatesMailedMs: mailedAt - t0,
      firstCertificateMs: Number.isFinite(firstCertificate) ? firstCertificate - t0 : undefined,
    };
    figures.effects = {
      accepted: submitted.length,
      passes,
      ...counted,
      certificateMails: certMails.length,
      certificateMailRecipients: new Set(certMails.flatMap((m) => m.to)).size,
      certificateMailsWithPdf: certMails.filter((m) =>
        m.attachments.some((a) => a.contentType === 'application/pdf'),
      ).length,
      deadLetters: (await deadLetterCount(vhost.url)) - dlqBefore,
    };
    const busAfter = await busBytes(stack);
    const carried = Object.fromEntries(
      Object.entries(busAfter).map(([event, bytes]) => [event, bytes - (busBefore[event] ?? 0)]),
    );
    const certificateEvents = Object.entries(carried)
      .filter(([event]) => event.startsWith('report.certificate.issued.'))
      .reduce((sum, [, bytes]) => sum + bytes, 0);
    figures.bus = {
      byEvent: carried,
      perStudent: Object.values(carried).reduce((a, b) => a + b, 0) / N,
      perCertificate: certificateEvents / Math.max(counted.certificates.issued, 1),
    };
    out(
      `      bus payload: ${figures.bus.perCertificate.toFixed(0)} B per certificate's event, ${figures.bus.perStudent.toFixed(0)} B per student over every event`,
    );
    out(
      `      all results after ${seconds(figures.drain.allResultsMs)} s, all certificates mailed after ${seconds(figures.drain.allCertificatesMailedMs)} s`,
    );
    out(`      effects: ${JSON.stringify(figures.effects)}`);
    for (const [name, p] of Object.entries(figures.processes))
      out(
        `      ${name.padEnd(16)} CPU ${p.cpuSeconds.toFixed(1)} s${p.peakMb ? `, peak ${p.peakMb.toFixed(0)} MB` : ''}`,
      );

    out(`\n[3/6] the bare journey: ${N} students arriving over the same ${ARRIVAL_S} s, same load processes`);
    figures.bare = await runBareJourney({
      students: N,
      arrivalSeconds: ARRIVAL_S,
      pauses: PAUSES,
      workers,
      page,
      sheet,
    });
    for (const [name, p] of Object.entries(figures.bare.processes))
      out(`      ${name.padEnd(16)} CPU ${p.cpuSeconds.toFixed(1)} s`);
    out(
      `      bare ${figures.bare.journeyMs.toFixed(1)} ms a journey; counted ${JSON.stringify(figures.bare.measured)}; effects ${JSON.stringify(figures.bare.effects)}`,
    );

    out(`\n[4/6] one assessment load: database round trips and calls to other services`);
    figures.loadCost = await loadCost(
      stack,
      submitted.map((s) => s.token),
      200,
    );
    out(`      ${JSON.stringify(figures.loadCost)}`);

    out(`\n[5/6] submit accept rate (answered at commit) against a bare Express POST + INSERT`);
    figures.bareInsert = await barePostInsert();
    out(`      bare: ${figures.bareInsert.perSecond.toFixed(0)}/s, p99 ${figures.bareInsert.p99} ms`);
    const second = await importStudents(stack.gatewayUrl, token, 'rate', SUBMIT_N);
    await waitFor(
      'invitation mails',
      DRAIN_TIMEOUT_S,
      () => mailsTo(stack, second.domain, INVITATION_SUBJECT).length >= SUBMIT_N,
    );
    const prepared = await runOrder(workers, second.students, {
      kind: 'prepare',
      gateway: stack.gatewayUrl,
      sheet,
      concurrency: 16,
    });
    await sleep(3_000);
    const rateCpu = Object.fromEntries(
      ['gateway', 'student', 'PostgreSQL'].map((n) => [
        n,
        groups[n]().reduce((a, p) => a + cpuSeconds(p), 0),
      ]),
    );
    // Scoring paused (the results service stopped, its events wait in RabbitMQ): the accept path alone has the
    // cores, as the bare baseline had them; the results and certificates follow once it runs again.
    const resultsPid = stack.service('results').pid;
    process.kill(resultsPid, 'SIGSTOP');
    let rate;
    try {
      rate = await runOrder(workers, prepared.students, {
        kind: 'submit',
        gateway: stack.gatewayUrl,
        sheet,
        concurrency: Math.ceil(SUBMIT_CONCURRENCY / WORKERS),
      });
    } finally {
      process.kill(resultsPid, 'SIGCONT');
    }
    const rateSummary = summarise(rate.calls)['submit, answered at commit'];
    figures.submitRate = {
      students: SUBMIT_N,
      concurrency: SUBMIT_CONCURRENCY,
      perSecond: rateSummary.calls / (rate.elapsedMs / 1000),
      ...rateSummary,
      cpuMsPerSubmit: Object.fromEntries(
        Object.entries(rateCpu).map(([n, c]) => [
          n,
          ((groups[n]().reduce((a, p) => a + cpuSeconds(p), 0) - c) * 1000) / rateSummary.calls,
        ]),
      ),
    };
    out(
      `      accepted ${figures.submitRate.perSecond.toFixed(0)}/s (ratio ${(figures.submitRate.perSecond / figures.bareInsert.perSecond).toFixed(2)}), p50 ${rateSummary.p50.toFixed(0)} p99 ${rateSummary.p99.toFixed(0)} ms, ${rateSummary.errors} errors`,
    );
    const rateAccepted = rate.students.filter((s) => s.submitStatus >= 200 && s.submitStatus < 300);
    await waitFor(
      'every result of the rate run',
      DRAIN_TIMEOUT_S,
      async () => (await effects(pools, rateAccepted)).results.n >= rateAccepted.length,
    );
    const ratePasses = rateAccepted.filter((s) => s.passes).length;
    const certStart = Date.now();
    await waitFor(
      'every certificate of the rate run mailed',
      DRAIN_TIMEOUT_S,
      () => mailsTo(stack, second.domain, CERTIFICATE_SUBJECT).length >= ratePasses,
    );
    figures.submitRate.effects = await effects(pools, rateAccepted);
    figures.submitRate.certificatesMailedAfterResultsMs = Date.now() - certStart;

    out(`\n[6/6] bare puppeteer-core PDF loop with the report service's pool`);
    const logger = createLogger({ name: 'bench', level: 'error' });
    const choice = await chooseBrowser({
      bundled: true,
      bundledDir: path.join(stack.dataDir, 'chromium-bench'),
      logger,
    });
    const pool = Number(process.env.PDF_POOL_SIZE ?? 2);
    const bare = await bareLoop({
      executablePath: choice.executablePath,
      args: choice.args,
      fontFaces: loadFontFaces(),
      count: 200,
      pool,
    });
    const pipelineSeconds = (mailedAt - (t0 + figures.drain.firstCertificateMs)) / 1000;
    figures.pdf = {
      pool,
      bare,
      pipelinePerSecond: passes / Math.max(pipelineSeconds, 1e-3),
      browser: `${choice.source} ${choice.version}`,
    };
    out(
      `      bare ${bare.toFixed(1)} PDF/s; pipeline in the peak ${figures.pdf.pipelinePerSecond.toFixed(1)} certificates/s`,
    );
    // Between peaks: the report service closes its browser after PDF_BROWSER_IDLE_SECONDS (60) without a PDF.
    await waitFor(
      'the report service closing its idle browser',
      180,
      () => descendants(stack.service('report').pid).length === 0,
    );
    await sleep(5_000);
    figures.idleAfter = watch.idle();
    // What an idle service asks of PostgreSQL: its relay's slow check, its periodic jobs.
    const quietStart = await statements();
    await sleep(IDLE_STATEMENTS_S * 1000);
    const quietEnd = await statements();
    figures.idleStatementsPerSecond = Object.fromEntries(
      SERVICES.map((s, i) => [s, (quietEnd[i] - quietStart[i]) / IDLE_STATEMENTS_S]),
    );
    out(
      `      idle statements a second: ${SERVICES.map((s) => `${s} ${figures.idleStatementsPerSecond[s].toFixed(2)}`).join(', ')}`,
    );
    figures.pdfIdleSeconds = PDF_IDLE_SECONDS;
    figures.heapAfter = await heapFigures(stack);
    out(
      `      memory after the peak (V8 heap used / held, outside the heap, MB): ${SERVICES.map((s) => {
        const h = figures.heapAfter[s];
        return `${s} ${h.used.toFixed(0)} / ${h.total.toFixed(0)}, ${h.external.toFixed(0)}`;
      }).join('; ')}`,
    );
    out(
      `      idle after the peak: report ${figures.idleAfter.report.rssMb.toFixed(0)} MB with its browser closed; ${SERVICES.filter(
        (s) => s !== 'report',
      )
        .map((s) => `${s} ${figures.idleAfter[s].rssMb.toFixed(0)} MB`)
        .join(', ')}`,
    );

    fs.mkdirSync(path.dirname(JSON_FILE), { recursive: true });
    fs.writeFileSync(JSON_FILE, JSON.stringify(figures, null, 2));
    // The default peak has its section; a run with another BENCH_STUDENTS adds or replaces a section of its own.
    writeSection(RESULTS_FILE, N === 5000 ? 'enrolment-peak' : `enrolment-peak-${N}`, markdown(figures));
    out(`\nwritten to ${path.relative(ROOT, RESULTS_FILE)} and ${path.relative(ROOT, JSON_FILE)}`);
  } finally {
    for (const w of workers) w.kill();
    for (const p of Object.values(pools)) await p.end().catch(() => undefined);
    await stack.stop().catch((err) => out(`stopping the stack: ${err}`));
    await vhost.close().catch(() => undefined);
    ownPostgres?.stop();
    broker?.stop();
  }
}

/** Says, when the run had a broker node of its own, with which settings. */
function brokerNote(settings) {
  if (!settings) return '';
  const lines = Object.entries(settings).map(([k, v]) => (k === 'advanced.config' ? v : `${k} = ${v}`));
  return ` (RabbitMQ a node of the bench's own with the development cluster's settings, \`bench/own-broker.js\`: ${lines
    .map((line) => `\`${line}\``)
    .join(', ')})`;
}

/** The tables whose HOT share the peak reports: the per-journey rows updated most. */
const HOT_TABLES = ['attempts', 'outbox'];

/** The database split, as the peak prints it: per service database, per journey. */
function databaseLines(d) {
  const f2 = (v) => (v === undefined ? '–' : v.toFixed(2));
  const lines = [
    d.statementsAvailable
      ? 'database, per journey (pg_stat_statements, pg_stat_database, pg_stat_user_tables):'
      : 'database, per journey: no statement split (pg_stat_statements is not loaded on this server; without BENCH_PG_URL the bench runs a cluster of its own that has it)',
  ];
  for (const [service, s] of Object.entries(d.services)) {
    const updated = Object.entries(s.tables)
      .filter(([, t]) => t.upd > 0)
      .map(([name, t]) => `${name} ${databaseSplit.hotRatio(t)} HOT`)
      .join(', ');
    lines.push(
      `  ${service.padEnd(13)} ${f2(s.calls)} statements, plan ${f2(s.planMs)} ms, exec ${f2(s.execMs)} ms, WAL ${s.walBytes === undefined ? '–' : `${s.walBytes.toFixed(0)} B`} in ${f2(s.walRecords)} records, ${f2(s.commits)} commits, ${s.autovacuums} autovacuums, ${s.autoanalyzes} autoanalyzes; updates: ${updated || 'none'}`,
    );
  }
  const c = d.cluster;
  lines.push(
    `  cluster WAL (pg_stat_wal): ${c.walBytes.toFixed(0)} B in ${c.walRecords.toFixed(2)} records, ${c.walFpi.toFixed(2)} full-page images; WAL position moved ${c.lsnBytes.toFixed(0)} B`,
  );
  if (d.autovacuumRuns) {
    const cpu = d.autovacuumRuns.reduce((a, r) => a + r.cpuS, 0);
    lines.push(
      `  autovacuum (the cluster's log): ${d.autovacuumRuns.length} runs, ${cpu.toFixed(2)} s CPU: ${d.autovacuumRuns.map((r) => `${r.kind} ${r.table.split('.').pop()} ${r.cpuS.toFixed(2)} s`).join(', ')}`,
    );
  }
  for (const t of d.top ?? [])
    lines.push(
      `  top: ${t.service} ${t.msPerJourney.toFixed(3)} ms (plan ${t.planMsPerJourney.toFixed(3)}), ${t.callsPerJourney.toFixed(2)} calls: ${t.query}`,
    );
  return lines;
}

/** The database split as the section shows it: one row per service database, then the HOT shares. */
function databaseSection(f) {
  const d = f.database;
  if (!d) return '';
  const f2 = (v) => (v === undefined ? '–' : v.toFixed(2));
  const rows = Object.entries(d.services).map(
    ([service, s]) =>
      `| ${service} | ${f2(s.calls)} | ${f2(s.planMs)} ms | ${f2(s.execMs)} ms | ${s.walBytes === undefined ? '–' : `${s.walBytes.toFixed(0)} B`} (${f2(s.walRecords)}) | ${f2(s.commits)} | ${s.autovacuums} / ${s.autoanalyzes} | ${HOT_TABLES.map((t) => databaseSplit.hotRatio(s.tables[t])).join(' / ')} |`,
  );
  const sum = (field) =>
    Object.values(d.services).reduce((a, s) => (s[field] === undefined ? a : a + s[field]), 0);
  const vacuumCpu = d.autovacuumRuns?.reduce((a, r) => a + r.cpuS, 0);
  const where = f.ownPostgres
    ? "a PostgreSQL cluster of the bench's own (Debian's binaries, a temporary folder; the shared server's settings: no fsync or full-page writes, commits not waited for, 128 MB of shared buffers; autovacuum on, as in production) with `pg_stat_statements` preloaded"
    : 'the server at BENCH_PG_URL';
  return `
The database, per journey, over the peak and its drain, on ${where}${d.statementsAvailable ? '' : ' (**no statement split: `pg_stat_statements` is not loaded there**)'}.
Statements, planning and execution time and their WAL are \`pg_stat_statements\`'; commits \`pg_stat_database.xact_commit\`
(the bench's own reads not taken off here); autovacuum and autoanalyze runs, updates and HOT updates
\`pg_stat_user_tables\`.

| Service database | statements | planning | execution | WAL (records) | commits | autovacuum / autoanalyze runs | HOT updates: attempts / outbox |
| --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}
| **every database** | ${f2(d.statementsAvailable ? sum('calls') : undefined)} | ${d.statementsAvailable ? `${sum('planMs').toFixed(2)} ms` : '–'} | ${d.statementsAvailable ? `${sum('execMs').toFixed(2)} ms` : '–'} | ${d.statementsAvailable ? `${sum('walBytes').toFixed(0)} B` : '–'} | ${sum('commits').toFixed(2)} | – | – |

The cluster's WAL (\`pg_stat_wal\`, every database and autovacuum): ${d.cluster.walBytes.toFixed(0)} B a journey in ${d.cluster.walRecords.toFixed(2)} records, ${d.cluster.walFpi.toFixed(2)} full-page images.${vacuumCpu === undefined ? '' : ` Autovacuum (the cluster's log, \`log_autovacuum_min_duration = 0\`): ${d.autovacuumRuns.length} runs, ${vacuumCpu.toFixed(2)} s of CPU over the run.`}
`;
}

const ms = (v) => (v === undefined || Number.isNaN(v) ? '–' : `${Math.round(v)} ms`);
const verdict = (ok) => (ok ? 'met' : '**not met**');
const heapRange = (heaps) => {
  const held = Object.values(heaps).map((h) => Math.max(h.used, h.total));
  return `${Math.min(...held).toFixed(0)}–${Math.max(...held).toFixed(0)} MB`;
};

function markdown(f) {
  const c = f.calls;
  const e = f.effects;
  const order = [
    'open link',
    'load assessment',
    'start',
    'place in line',
    'line stream',
    'line told',
    'waiting room',
    'autosave',
    'upload file',
    'submit',
  ];
  const callRows = order
    .filter((n) => c[n])
    .map(
      (n) =>
        `| ${n} | ${c[n].calls} | ${c[n].errors} | ${ms(c[n].p50)} | ${ms(c[n].p95)} | ${ms(c[n].p99)} | ${ms(c[n].max)} |`,
    );
  const errors = Object.values(c).reduce((a, x) => a + x.errors, 0);
  const perStudent = (cpu) => `${((cpu * 1000) / f.students).toFixed(1)} ms`;
  const procRows = Object.entries(f.processes).map(([n, p]) => {
    const idle = f.idle[n];
    const after = f.idleAfter[n];
    const idleMb = idle
      ? n === 'report'
        ? `${idle.rssMb.toFixed(0)} / ${after.rssMb.toFixed(0)} (with its browser running, PSS: ${idle.pssTreeMb.toFixed(0)}; closed: ${after.pssTreeMb.toFixed(0)})`
        : `${idle.rssMb.toFixed(0)} / ${after.rssMb.toFixed(0)}`
      : '–';
    const sql =
      p.statements === undefined ? '–' : `${p.statements} (${(p.statements / f.students).toFixed(1)})`;
    return `| ${n} | ${p.cpuSeconds.toFixed(1)} s | ${perStudent(p.cpuSeconds)} | ${sql} | ${idleMb} | ${p.peakMb ? p.peakMb.toFixed(0) : '–'} |`;
  });
  const lostOrDuplicated =
    e.attempts.n !== e.accepted ||
    e.attempts.students !== e.accepted ||
    e.results.n !== e.accepted ||
    e.results.students !== e.accepted ||
    e.certificates.n !== e.passes ||
    e.certificates.students !== e.passes ||
    e.certificateMails !== e.passes ||
    e.certificateMailRecipients !== e.passes;
  const others = ['gateway', 'auth', 'assessment', 'student', 'results', 'notification'];
  const idleOk = others.every((n) => f.idle[n].rssMb < 150 && f.idleAfter[n].rssMb < 150);
  const largestAfter = Math.max(...others.map((n) => f.idleAfter[n].rssMb));
  const idleStatementsOk = Object.values(f.idleStatementsPerSecond).every((v) => v <= 0.2);
  const sr = f.submitRate;
  const ratio = sr.perSecond / f.bareInsert.perSecond;
  const p99Peak = Math.max(c['load assessment']?.p99 ?? 0, c.start?.p99 ?? 0);
  // Issue 24's measure: every server process (not the load generators), certificates included.
  const serverCpu = Object.entries(f.processes)
    .filter(([n]) => n !== 'load generators')
    .reduce((sum, [, p]) => sum + p.cpuSeconds, 0);
  const journeyMs = (serverCpu * 1000) / f.students;
  const pipelineRatio = f.pdf.pipelinePerSecond / f.pdf.bare;
  const d = f.drain;
  const bare = f.bare ? bareSection(f, serverCpu) : { headline: '', tables: '', goal: '' };
  return `## The enrolment peak: ${f.students.toLocaleString('en')} students within ${f.windowSeconds} s

Run ${f.startedAt.slice(0, 16).replace('T', ' ')} UTC on ${f.cores} cores, Node ${process.version}, load average ${f.loadAverage.toFixed(2)} at the
start, with \`node bench/peak.js\` (\`BENCH_STUDENTS=${f.students}\`). The product runs as the local stack: one
process per service from its \`dist\` (\`LOG_LEVEL=warn\`, development keys), PostgreSQL, RabbitMQ and Redis on this machine${brokerNote(f.ownBroker)},
the per-address rate limits raised (all load comes from one address). ${f.workers} separate load processes
(\`bench/peak-worker.js\`) take the students through the flow behind the gateway: ${f.students.toLocaleString('en')}
invited by one CSV import (${seconds(f.import.importMs)} s; every invitation mailed ${seconds(f.import.invitationsMailedMs)} s after the
import began), then each arrives at a random moment of the first ${ARRIVAL_S} s, opens the link, loads the
assessment, starts, autosaves three times ${PAUSES.autosave[0] / 1000}–${PAUSES.autosave[1] / 1000} s apart, uploads a 2 KB PDF and submits
(waiting for the result, as the page does); even-numbered students pass. Everything runs on the same
${f.cores} cores: load generators, eight services, the browser, PostgreSQL, RabbitMQ, Redis and the S3 server.
${bare.headline}
| Call (through the gateway) | Calls | Errors | p50 | p95 | p99 | max |
| --- | --- | --- | --- | --- | --- | --- |
${callRows.join('\n')}

| Effect, counted where it lives | Count |
| --- | --- |
| submissions accepted (passing) | ${e.accepted} (${e.passes}) |
| attempts, students with one | ${e.attempts.n}, ${e.attempts.students} |
| results recorded, students with one, passed | ${e.results.n}, ${e.results.students}, ${e.results.passed} |
| certificates, students with one, issued | ${e.certificates.n}, ${e.certificates.students}, ${e.certificates.issued} |
| certificate mails caught, recipients, with the PDF | ${e.certificateMails}, ${e.certificateMailRecipients}, ${e.certificateMailsWithPdf} |
| messages dead-lettered | ${e.deadLetters} |
| bytes through RabbitMQ (event payloads): per certificate's event, per student over every event | ${f.bus.perCertificate.toFixed(0)} B, ${f.bus.perStudent.toFixed(0)} B |
| last submit / every result recorded / every certificate mailed (from the first arrival) | ${seconds(f.drain.lastSubmitMs)} s / ${seconds(f.drain.allResultsMs)} s / ${seconds(f.drain.allCertificatesMailedMs)} s |

| Process | CPU over the peak and the drain | per student | PostgreSQL statements (per student) | idle RSS before / after the peak, MB | peak, MB |
| --- | --- | --- | --- | --- | --- |
${procRows.join('\n')}
| **every server process** (not the load generators) | ${serverCpu.toFixed(1)} s | **${journeyMs.toFixed(1)} ms** | – | – | – |
${bare.tables}${databaseSection(f)}
After the peak the services' V8 heaps held ${heapRange(f.heapAfter)} (used and held, from \`/metrics\`); the rest of each
resident set is outside the JavaScript heap (the Node binary and its libraries, ICU data, and what the allocator keeps).

| Measurement (same run) | Result | Baseline | Ratio |
| --- | --- | --- | --- |
| bare Express POST + one-row INSERT, ${SUBMIT_CONCURRENCY} connections (baseline) | ${f.bareInsert.perSecond.toFixed(0)}/s, p99 ${f.bareInsert.p99} ms | — | 1.00 |
| submit answered at commit (\`Prefer: respond-async\`), ${sr.students} prepared students, ${sr.concurrency} at a time, through the gateway, scoring paused (results service stopped, its events queued) | ${sr.perSecond.toFixed(0)}/s, p50 ${ms(sr.p50)}, p99 ${ms(sr.p99)}, ${sr.errors} errors | ${f.bareInsert.perSecond.toFixed(0)}/s | ${ratio.toFixed(2)} |
| CPU per accepted submit | ${Object.entries(sr.cpuMsPerSubmit)
    .map(([n, v]) => `${n} ${v.toFixed(2)} ms`)
    .join(', ')} | bare ${f.bareInsert.cpuMsPerRequest.toFixed(2)} ms | — |
| bare puppeteer-core PDF loop, ${f.pdf.pool} pages (baseline) | ${f.pdf.bare.toFixed(1)} PDF/s | — | 1.00 |
| certificate pipeline in the peak: first to last certificate mail (result → render → S3 → event → mail with PDF) | ${f.pdf.pipelinePerSecond.toFixed(1)}/s | ${f.pdf.bare.toFixed(1)}/s | ${(f.pdf.pipelinePerSecond / f.pdf.bare).toFixed(2)} |
| one assessment load: statements to the student database (${f.loadCost.loads} loads, idle traffic subtracted) | ${f.loadCost.queriesPerLoad.toFixed(2)} | 1 | — |
| one assessment load: requests served by any other service | ${f.loadCost.otherServiceRequests} | 0 | — |

${waitingRoomSection(f)}| Goal (issue 24) | Verdict |
| --- | --- |
| 0 errors, no lost or duplicated effect | ${verdict(errors === 0 && !lostOrDuplicated && e.deadLetters === 0)} (${errors} errors) |
| every student done within ${f.windowSeconds} s | ${verdict(d.lastSubmitMs <= f.windowSeconds * 1000)} (last submit at ${seconds(d.lastSubmitMs)} s) |
| load assessment and start p99 < 300 ms at the peak | ${verdict(p99Peak < 300)} (${ms(p99Peak)}) |
| every result recorded by the last submit + 5 s; every certificate mailed within 120 s of it | ${verdict(d.allResultsMs - d.lastSubmitMs <= 5_000 && d.allCertificatesMailedMs - d.lastSubmitMs <= 120_000)} (+${seconds(d.allResultsMs - d.lastSubmitMs)} s, +${seconds(d.allCertificatesMailedMs - d.lastSubmitMs)} s) |
| CPU per whole journey ≤ 25 ms over every server process, certificates included | ${verdict(journeyMs <= 25)} (${journeyMs.toFixed(1)} ms) |
${bare.goal}| submit accept ≥ 0.3 × bare POST + INSERT, p99 < 100 ms | ${verdict(ratio >= 0.3 && sr.p99 < 100)} (${ratio.toFixed(2)}, p99 ${ms(sr.p99)}) |
| certificate pipeline in the peak ≥ 10 × the bare PDF loop | ${verdict(pipelineRatio >= 10)} (${pipelineRatio.toFixed(2)}) |
| bytes through RabbitMQ per certificate < 2 KB | ${verdict(f.bus.perCertificate < 2048)} (${f.bus.perCertificate.toFixed(0)} B) |
| assessment load: no call to another service, one round trip | ${verdict(f.loadCost.otherServiceRequests === 0 && Math.round(f.loadCost.queriesPerLoad) === 1)} |
| an idle service sends at most 0.2 statements a second | ${verdict(idleStatementsOk)} (${Object.entries(
    f.idleStatementsPerSecond,
  )
    .map(([n, v]) => `${n} ${v.toFixed(2)}`)
    .join(', ')}, over ${IDLE_STATEMENTS_S} s after the peak) |
| every service idle < 150 MB RSS after the peak, the report service's browser closed | ${verdict(idleOk && f.idleAfter.report.rssMb < 150)} (largest other after the peak ${largestAfter.toFixed(0)} MB; report ${f.idleAfter.report.rssMb.toFixed(0)} MB RSS, ${f.idleAfter.report.pssTreeMb.toFixed(0)} MB PSS, once its browser closed after ${f.pdfIdleSeconds} s without a PDF; ${f.idle.report.pssTreeMb.toFixed(0)} MB while it runs) |`;
}

/** The waiting room (issue 48): who waited before their clock started, and the admitted students' calls. */
function waitingRoomSection(f) {
  const w = f.waitingRoom;
  if (!w) return '';
  const c = f.calls;
  const worst = (names) => Math.max(...names.map((n) => c[n]?.p99 ?? 0));
  const admitted = worst(['autosave', 'upload file', 'submit']);
  const place = c['place in line'];
  return `The waiting room (\`WAITING_ROOM=measured\`, [waiting-room.md](waiting-room.md)): ${w.waited.toLocaleString('en')} of
${f.students.toLocaleString('en')} students were told their place in line (\`place in line\`: Start's 202) and waited before
their clock started, half of them ${seconds(w.p50WaitMs)} s or less, the longest ${seconds(w.longestWaitMs)} s; their pages
followed the line through its event stream (\`line stream\`: \`GET /api/waiting-room/events\`, the time to its first
figures; \`line told\`: each figure the gateway wrote, about every 5 s; \`waiting room\`: a poll of
\`GET /api/waiting-room\` while a page had no stream).

| Goal (issue 48) | Verdict |
| --- | --- |
| admitted students' calls p99 < 1 s (autosave, upload, submit) | ${verdict(admitted < 1000)} (${ms(admitted)}) |
| autosave and submit p99 < 500 ms | ${verdict(worst(['autosave', 'submit']) < 500)} (${ms(worst(['autosave', 'submit']))}) |
| every waiting student sees their place within 2 s of arriving | ${verdict(!place || place.max < 2000)} (${place ? `p99 ${ms(place.p99)}, max ${ms(place.max)}` : 'nobody waited'}) |

`;
}

/** The bare journey's failed calls, by call, with the first answer of each: ` (upload file: 500 …)`. */
const bareFailures = (b) => {
  const failed = Object.entries(b.calls).filter(([, c]) => c.errors > 0);
  return failed.length
    ? ` (${failed.map(([name, c]) => `${name}: ${c.failures[0]?.replace(/[\\|]/g, '')}`).join('; ')})`
    : '';
};

/** The product's journey against the bare journey of the same run: the headline, the tables, the goal's row. */
function bareSection(f, serverCpu) {
  const b = f.bare;
  const n = f.students;
  const ms = (seconds, count) => ((seconds * 1000) / count).toFixed(1);
  const productMs = (serverCpu * 1000) / n;
  const ratio = productMs / b.journeyMs;
  const cpu = (processes, names) => names.reduce((sum, name) => sum + (processes[name]?.cpuSeconds ?? 0), 0);
  const services = SERVICES.filter((s) => s !== 'gateway');
  const parts = [
    ['proxy: the gateway / the bare proxy', ['gateway'], ['bare proxy']],
    [`the services (${services.join(', ')}) / the bare app`, services, ['bare app']],
    [
      "PostgreSQL (the run's databases' backends and the server's own processes)",
      ['PostgreSQL'],
      ['PostgreSQL'],
    ],
    ['RabbitMQ', ['RabbitMQ'], ['RabbitMQ']],
    ['object storage (the embedded S3 server)', ['object storage'], ['object storage']],
    ['Redis', ['Redis'], []],
    ['Chromium', ['Chromium'], []],
  ];
  const partRows = parts.map(([label, product, bareNames]) => {
    const p = cpu(f.processes, product) / n;
    const q = bareNames.length ? cpu(b.processes, bareNames) / b.students : undefined;
    return `| ${label} | ${(p * 1000).toFixed(1)} ms | ${q === undefined ? '–' : `${(q * 1000).toFixed(1)} ms`} | ${q ? (p / q).toFixed(2) : '–'} |`;
  });
  const c = f.journeyCounts ?? {};
  const per = (v, count) => (v === undefined ? '–' : (v / count).toFixed(2));
  const productCounts = [
    // The figures the gateway writes on an open stream (`line told`) are not calls: the stream is one (`line stream`).
    per(
      Object.entries(f.calls).reduce((a, [name, x]) => (name === 'line told' ? a : a + x.calls), 0),
      n,
    ),
    per(c.commits, n),
    per(c.published, n),
    per(c.acknowledged, n),
    (f.effects.certificateMailsWithPdf / n).toFixed(2),
    (f.effects.accepted / n).toFixed(2),
  ];
  const countRows = bareCountRows(b).map((row, i) => `${row} ${productCounts[i]} |`);
  return {
    headline: `
**Product CPU per journey ÷ bare CPU per journey, same run: ${ratio.toFixed(2)}** (${productMs.toFixed(1)} ms ÷ ${b.journeyMs.toFixed(1)} ms
over every server process; goal ≤ 2.5, issue 48). The bare journey ran after the product's peak and its drain, with the
same ${n.toLocaleString('en')} students, arrivals over the same ${b.arrivalSeconds} s, the same pauses and load processes, the product's
assessment page and answer sheet; the product's services stood idle meanwhile (not counted in it). How it is built:
"The bare journey: what the peak is divided by" in docs/benchmarks.md.
`,
    tables: `
| Part, CPU per journey | product | bare | product ÷ bare |
| --- | --- | --- | --- |
${partRows.join('\n')}
| **every server process** | **${productMs.toFixed(1)} ms** | **${b.journeyMs.toFixed(1)} ms** | **${ratio.toFixed(2)}** |
| load generators (not counted) | ${ms(f.processes['load generators'].cpuSeconds, n)} ms | ${ms(b.processes['load generators'].cpuSeconds, b.students)} ms | – |

| Bare journey's process | CPU over the run and the drain | per journey |
| --- | --- | --- |
${bareProcessRows(b).join('\n')}

| Per journey | bare, by design | bare, counted | product, counted |
| --- | --- | --- | --- |
${countRows.join('\n')}

Counted: commits are \`pg_stat_database.xact_commit\` of the run's databases over the peak and its drain (a
statement outside a transaction is a commit of its own; the bench's own reads taken off), events published,
delivered and acknowledged are RabbitMQ's counts for the run's vhost (on the bench's own node, its Prometheus
plugin's node-wide counters, while only that vhost is busy). Failed calls of the bare journey:
${Object.values(b.calls).reduce((a, x) => a + x.errors, 0)}${bareFailures(b)}; ${b.effects.submitted} submitted, ${b.effects.consumed} deliveries written, ${b.effects.mailsWithPdf} certificates mailed with the PDF.
`,
    goal: `| product CPU per journey ≤ 2.5 × the bare journey, same run (issue 48) | ${verdict(ratio <= 2.5)} (${ratio.toFixed(2)}) |
`,
  };
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
} else {
  // `node -e "require('./bench/peak').markdown(require('./test-results/peak-5000.json'))"` renders a run again.
  module.exports = { markdown };
}
