'use strict';
// Small helpers of the benchmark harness: child processes, ports, load runs and the results file.
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const autocannon = require('autocannon');

/** A free loopback port (the tiny window before the child binds it is acceptable for a local bench). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const children = new Set();

/**
 * Starts `node <script>` with its output appended to `logFile`; the process is killed by `stopAll`.
 * BENCH_NODE_ARGS passes flags to the servers, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to see where time goes.
 */
function startNode(name, script, env, logFile) {
  const fd = fs.openSync(logFile, 'a');
  const child = spawn(
    process.execPath,
    [...(process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ') : []), script],
    {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['ignore', fd, fd],
    },
  );
  fs.closeSync(fd);
  const entry = {
    name,
    child,
    exited: new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal }))),
  };
  children.add(entry);
  entry.exited.then(() => children.delete(entry));
  return entry;
}

/** SIGTERM (the services' graceful path), then SIGKILL for anything still there after `graceMs`. */
async function stopAll(graceMs = 5000) {
  const running = [...children];
  for (const { child } of running) child.kill('SIGTERM');
  await Promise.race([
    Promise.all(running.map((e) => e.exited)),
    new Promise((resolve) => setTimeout(resolve, graceMs).unref()),
  ]);
  for (const { child } of running)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

function killAllNow() {
  for (const { child } of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** Polls `url` until it answers 200; fails early when the process exits. */
async function waitUntilReady(entry, url, timeoutMs = 60000) {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  entry.exited.then(() => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`${entry.name} exited before it was ready`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await res.body?.cancel();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${entry.name} was not ready at ${url} within ${timeoutMs} ms`);
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/**
 * CPU seconds (user + system) a process has used so far, from /proc; with `reaped`, also its children's that ended
 * and were waited for (a browser's renderers). Undefined where there is no such process or no /proc.
 */
function cpuSeconds(pid, reaped = false) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    const own = Number(fields[11]) + Number(fields[12]);
    return (reaped ? own + Number(fields[13]) + Number(fields[14]) : own) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** Every process below `root` (a browser's, a PostgreSQL server's), from /proc; Linux only. */
function descendants(root) {
  const children = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // Ended meanwhile.
    }
  }
  const found = [];
  const stack = [...(children.get(root) ?? [])];
  while (stack.length) {
    const pid = stack.pop();
    found.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return found;
}

/** The servers the stack runs on, by their command name: every process of each. */
function serverPids() {
  const found = { PostgreSQL: [], RabbitMQ: [], Redis: [] };
  // The bench's own RabbitMQ node (`BENCH_RABBITMQ_PID`, see own-broker.js): its VM only, not the machine's broker.
  const ownBroker = Number(process.env.BENCH_RABBITMQ_PID);
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let comm;
    try {
      comm = fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
    } catch {
      continue;
    }
    if (comm === 'postgres') found.PostgreSQL.push(Number(entry));
    else if (comm.startsWith('beam.smp') && (!ownBroker || Number(entry) === ownBroker))
      found.RabbitMQ.push(Number(entry));
    else if (comm === 'redis-server') found.Redis.push(Number(entry));
  }
  return found;
}

/**
 * The PostgreSQL server's processes that work for `databases`: the backends connected to one of them, and the
 * server's own processes (WAL writer, checkpointer, autovacuum), which serve every database (of the bench's own
 * cluster only, when it runs one). Backends of other
 * databases (another run's, another engineer's tests on a shared machine) are left out. Read from each process's
 * title (`postgres: 15/main: <user> <database> <host>(<port>) <state>`).
 */
function postgresPids(databases) {
  const wanted = new Set(databases);
  const found = [];
  // The bench's own cluster (`BENCH_PG_POSTMASTER`, see database-split.js): its postmaster and what it forked.
  const own = Number(process.env.BENCH_PG_POSTMASTER);
  const candidates = own ? [own, ...descendants(own)] : serverPids().PostgreSQL;
  for (const pid of candidates) {
    let title;
    try {
      title = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
    } catch {
      continue;
    }
    const backend = /^postgres: (?:[^:]+: )?\S+ (\S+) (?:\S+\(\d+\)|\[local\])/.exec(title);
    if (!backend || wanted.has(backend[1])) found.push(pid);
  }
  return found;
}

/** `fn` with a PostgreSQL connection to `url` of its own, closed after it whatever happens. */
async function withClient(url, fn) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Transactions committed in `databases` so far (`pg_stat_database.xact_commit`, as the server last flushed them). */
async function committed(adminUrl, databases) {
  return withClient(adminUrl, async (client) => {
    const { rows } = await client.query(
      'SELECT coalesce(sum(xact_commit), 0)::bigint AS n FROM pg_stat_database WHERE datname = ANY($1::text[])',
      [databases],
    );
    return Number(rows[0].n);
  });
}

/**
 * A vhost's message counts so far: messages published into its exchanges, delivered to consumers and acknowledged by
 * them. From RabbitMQ's management API; on the bench's own node (own-broker.js), whose statistics collector is off,
 * from the Prometheus plugin's node-wide counters, which count only the bench's one busy vhost. Undefined when neither
 * answers.
 */
async function brokerCounts(vhost) {
  if (process.env.BENCH_RABBITMQ_PROMETHEUS_URL) {
    const metrics = await prometheusText('/metrics');
    if (metrics === undefined) return undefined;
    return {
      published: total(seriesOf(metrics, 'rabbitmq_global_messages_received_total')),
      delivered: total(seriesOf(metrics, 'rabbitmq_global_messages_delivered_total')),
      acknowledged: total(seriesOf(metrics, 'rabbitmq_global_messages_acknowledged_total')),
    };
  }
  const res = await managementGet(`/api/vhosts/${encodeURIComponent(vhost)}`);
  if (!res) return undefined;
  const stats = (await res.json()).message_stats ?? {};
  return { published: stats.publish ?? 0, delivered: stats.deliver_get ?? 0, acknowledged: stats.ack ?? 0 };
}

/**
 * Messages waiting in the dead-letter queues (`.dlq`) of the vhost at `vhostUrl`: their names from the management API,
 * their depths from the queues themselves over AMQP, as they are now (the management API has no depths with its
 * statistics collector off, and the Prometheus plugin's are as old as the queue's last report). Undefined when the
 * broker does not answer.
 */
async function deadLetterCount(vhostUrl) {
  const vhost = decodeURIComponent(new URL(vhostUrl).pathname.slice(1)) || '/';
  const res = await managementGet(`/api/queues/${encodeURIComponent(vhost)}?columns=name`);
  if (!res) return undefined;
  const names = (await res.json()).map((q) => q.name).filter((name) => name.endsWith('.dlq'));
  const amqp = require('amqplib');
  const connection = await amqp.connect(vhostUrl);
  try {
    const channel = await connection.createChannel();
    let sum = 0;
    for (const name of names) sum += (await channel.checkQueue(name)).messageCount;
    return sum;
  } finally {
    await connection.close();
  }
}

async function managementGet(route) {
  const u = new URL(process.env.TEST_AMQP_MANAGEMENT_URL ?? 'http://guest:guest@127.0.0.1:15672');
  const auth = Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString(
    'base64',
  );
  const res = await fetch(`${u.protocol}//${u.host}${route}`, {
    headers: { authorization: `Basic ${auth}` },
  }).catch(() => undefined);
  return res?.ok ? res : undefined;
}

async function prometheusText(route) {
  const res = await fetch(`${process.env.BENCH_RABBITMQ_PROMETHEUS_URL}${route}`).catch(() => undefined);
  return res?.ok ? res.text() : undefined;
}

/**
 * CPU seconds of each watched group of processes between `start()` and `stop()`. A group's processes are listed
 * again at each reading (PostgreSQL forks a backend per connection): each counts from its reading at `start()`, or
 * from zero when it began later.
 */
function cpuWatch(groups) {
  const base = new Map();
  const cpu = (pids) => pids().reduce((sum, pid) => sum + (cpuSeconds(pid) ?? 0) - (base.get(pid) ?? 0), 0);
  return {
    start() {
      for (const pids of Object.values(groups)) for (const pid of pids()) base.set(pid, cpuSeconds(pid) ?? 0);
    },
    stop: () =>
      Object.fromEntries(Object.entries(groups).map(([name, pids]) => [name, { cpuSeconds: cpu(pids) }])),
  };
}

/** Pauses of a student of the peak between steps (ms): reading a section, finding the file, checking before submitting. */
const JOURNEY_PAUSES = { autosave: [3_000, 7_000], upload: [1_000, 4_000], submit: [1_000, 4_000] };

// ---------------------------------------------------------------------------------------------------------------
// Load processes of the peak (`peak-worker.js`): orders, and what they report.

/** Sends each worker its share of the students and merges what they report. */
async function runOrder(workers, students, order) {
  const shares = workers.map(() => []);
  students.forEach((s, i) => shares[i % workers.length].push(s));
  const reports = await Promise.all(
    workers.map(
      (w, i) =>
        new Promise((resolve, reject) => {
          w.once('message', (m) => (m.ok ? resolve(m) : reject(new Error(m.error))));
          w.send({ ...order, students: shares[i] });
        }),
    ),
  );
  const calls = {};
  for (const r of reports) {
    for (const [name, c] of Object.entries(r.calls)) {
      const into = (calls[name] ??= { ms: [], at: [], ok: 0, statuses: {}, failures: [] });
      into.ms.push(...c.ms);
      into.at.push(...(c.at ?? []));
      into.ok += c.ok;
      for (const [s, n] of Object.entries(c.statuses)) into.statuses[s] = (into.statuses[s] ?? 0) + n;
      into.failures.push(...c.failures);
    }
  }
  const byId = new Map(reports.flatMap((r) => r.students).map((s) => [s.id, s]));
  return {
    calls,
    students: students.map((s) => byId.get(s.id)),
    elapsedMs: Math.max(...reports.map((r) => r.elapsedMs ?? 0)),
  };
}

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Each call's count, errors and latency percentiles. */
function summarise(calls) {
  return Object.fromEntries(
    Object.entries(calls).map(([name, c]) => {
      const ms = [...c.ms].sort((a, b) => a - b);
      const total = Object.values(c.statuses).reduce((a, b) => a + b, 0);
      return [
        name,
        {
          calls: total,
          errors: total - c.ok,
          statuses: c.statuses,
          failures: c.failures.slice(0, 5),
          p50: percentile(ms, 50),
          p95: percentile(ms, 95),
          p99: percentile(ms, 99),
          max: ms[ms.length - 1],
        },
      ];
    }),
  );
}

/**
 * Each call's latencies by when they were answered, in windows of `windowMs` from `t0`: `[name, [[from s, calls,
 * p50, p95, max], …]]`, to tell when in a run a call was slow (the run's log; docs keep the whole run's figures).
 */
function byWindow(calls, t0, windowMs, names) {
  return names
    .filter((name) => calls[name]?.at?.length)
    .map((name) => {
      const windows = new Map();
      calls[name].at.forEach((at, i) => {
        const w = Math.max(0, Math.floor((at - t0) / windowMs));
        if (!windows.has(w)) windows.set(w, []);
        windows.get(w).push(calls[name].ms[i]);
      });
      return [
        name,
        [...windows.entries()]
          .sort(([a], [b]) => a - b)
          .map(([w, ms]) => {
            ms.sort((a, b) => a - b);
            return [
              (w * windowMs) / 1000,
              ms.length,
              percentile(ms, 50),
              percentile(ms, 95),
              ms[ms.length - 1],
            ];
          }),
      ];
    });
}

/**
 * One measured load run after a short warm-up (JIT, connection pools, caches). Throughput counts only
 * 2xx answers; any other answer makes the figure invalid, so it is reported and fails the bench.
 * `watch` ({ name: entry }) adds each server's CPU time per answered request: unlike throughput, it hardly
 * moves when other work shares the machine.
 */
async function measure({
  url,
  method = 'GET',
  headers,
  body,
  connections,
  seconds,
  warmupSeconds = 2,
  watch = {},
}) {
  const options = { url, method, headers, body, connections, pipelining: 1 };
  await autocannon({ ...options, duration: warmupSeconds });
  const before = Object.fromEntries(
    Object.entries(watch).map(([name, e]) => [name, cpuSeconds(e.child.pid)]),
  );
  const result = await autocannon({ ...options, duration: seconds });
  const ok = result['2xx'];
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0) {
    throw new Error(
      `${method} ${url}: ${failed} failed requests (non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}) of ${ok + failed}`,
    );
  }
  const cpuMicrosPerRequest = {};
  for (const [name, entry] of Object.entries(watch)) {
    const after = cpuSeconds(entry.child.pid);
    if (after !== undefined && before[name] !== undefined && ok > 0)
      cpuMicrosPerRequest[name] = Math.round(((after - before[name]) * 1e6) / (ok + failed));
  }
  return {
    cpuMicrosPerRequest,
    requestsPerSecond: ok / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: ok,
    seconds: result.duration,
    connections,
  };
}

/**
 * `make start`'s product (deploy/all-in-one/dist/main.js) on a free port with its data in `dataDir`, resolved once it
 * prints that it is running: its URL, the milliseconds that took, and `stop` (SIGINT, then its exit).
 */
async function startAllInOne(dataDir, env = {}) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(__dirname, '..', 'deploy/all-in-one/dist/main.js')], {
    cwd: path.join(__dirname, '..'),
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise((resolve, reject) => {
    const onData = (chunk) => {
      output += chunk.toString();
      if (output.includes('Readiness is running at')) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the product exited with ${code}:\n${output}`)));
  });
  const readyMs = performance.now() - started;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    readyMs,
    async stop() {
      child.kill('SIGINT');
      await exited;
    },
  };
}

const START = (id) => `<!-- bench:${id}:start -->`;
const END = (id) => `<!-- bench:${id}:end -->`;

/** Replaces this benchmark's section of the results file and keeps every other section. */
function writeSection(file, id, markdown) {
  const header =
    '# Benchmarks\n\nMeasured with `make bench` on the machine named in each section. Figures are ratios against a bare\nbaseline measured in the same run, because absolute figures on shared machines are noise.\n';
  const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : header;
  const section = `${START(id)}\n${markdown.trim()}\n${END(id)}`;
  const start = current.indexOf(START(id));
  const end = current.indexOf(END(id));
  const next =
    start >= 0 && end > start
      ? current.slice(0, start) + section + current.slice(end + END(id).length)
      : `${current.trimEnd()}\n\n${section}\n`;
  fs.writeFileSync(file, next);
}

/** One metric's series from a service's `/metrics`: each line's labels and value. */
async function metricSeries(internalUrl, name) {
  // Only this metric (a histogram's `_count` or `_sum` is asked for by the histogram's name): the others are not
  // collected, so a read costs no statement (the outbox gauges read the outbox when collected).
  const metric = name.replace(/_(count|sum|bucket)$/, '');
  const text = await (await fetch(`${internalUrl}/metrics?name=${encodeURIComponent(metric)}`)).text();
  return seriesOf(text, name);
}

/** One metric's series in a Prometheus text exposition: each line's labels and value. */
function seriesOf(text, name) {
  const series = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labels = Object.fromEntries(
      [...(/\{([^}]*)\}/.exec(line)?.[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]),
    );
    series.push({ labels, value: Number(line.split(' ').pop()) });
  }
  return series;
}

const total = (series) => series.reduce((sum, s) => sum + s.value, 0);

/** The sum of a Prometheus counter over its label sets, read from a service's internal `/metrics`. */
async function metricSum(internalUrl, name) {
  return total(await metricSeries(internalUrl, name));
}

// ---------------------------------------------------------------------------------------------------------------
// The product's API, as the institution's admin uses it.

async function api(base, method, url, { token, json, body, headers = {} } = {}) {
  const h = { ...headers };
  if (token) h.authorization = `Bearer ${token}`;
  if (json !== undefined) h['content-type'] = 'application/json';
  const res = await fetch(`${base}${url}`, {
    method,
    headers: h,
    body: json !== undefined ? JSON.stringify(json) : body,
  });
  const text = await res.text();
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  return parsed;
}

/** Answers that pass the active assessment, answers that fail it, and its first file question. */
async function answerSheet(base, token) {
  const { assessment } = await api(base, 'GET', '/api/assessment', { token });
  const answerable = assessment.questions.filter((q) => q.type !== 'file_upload' && q.correctAnswer);
  const wrong = (q) =>
    q.type === 'yes_no'
      ? q.correctAnswer === 'yes'
        ? 'no'
        : 'yes'
      : q.options.find((o) => o.id !== q.correctAnswer).id;
  const fileQuestion = assessment.questions.find((q) => q.type === 'file_upload');
  if (!fileQuestion) throw new Error('the active assessment has no file question to upload to');
  return {
    pass: answerable.map((q) => ({ questionId: q.id, answer: q.correctAnswer })),
    fail: answerable.map((q) => ({ questionId: q.id, answer: wrong(q) })),
    fileQuestionId: fileQuestion.id,
  };
}

/** Invites `count` students with one CSV import and reads their links back from the students list. */
async function importStudents(base, token, label, count) {
  const domain = `${label}.bench.example.edu`;
  const lines = ['name,email'];
  for (let i = 0; i < count; i++) lines.push(`Student ${label} ${i},s${i}@${domain}`);
  const form = new FormData();
  form.append('file', new Blob([lines.join('\n')], { type: 'text/csv' }), `${label}.csv`);
  const started = Date.now();
  const imported = await api(base, 'POST', '/api/admin/students/import', { token, body: form });
  const importMs = Date.now() - started;
  if (imported.imported !== count)
    throw new Error(
      `import took ${imported.imported} of ${count}: ${JSON.stringify(imported.problems?.slice(0, 3))}`,
    );
  const students = [];
  for (let page = 1; students.length < count; page++) {
    const list = await api(
      base,
      'GET',
      `/api/admin/students?limit=100&page=${page}&search=${encodeURIComponent(domain)}`,
      { token },
    );
    for (const s of list.students) {
      const i = Number(/^s(\d+)@/.exec(s.email)[1]);
      students.push({ id: s._id, email: s.email, token: s.inviteToken, passes: i % 2 === 0 });
    }
    if (!list.pagination.hasNext) break;
  }
  if (students.length !== count) throw new Error(`listed ${students.length} of ${count} imported students`);
  return { students, importMs, domain };
}

/**
 * The whole stack as `make stack` runs it (one process per service), isolated on free ports with a vhost of its
 * own, quiet logs; `stop()` ends both.
 */
async function startBenchStack(label, options = {}) {
  const { startLocalStack } = require(path.join(__dirname, '..', 'deploy/all-in-one/dist/local-stack'));
  // The bench's own RabbitMQ node once `useOwnBroker` started it, else a test vhost on the machine's broker.
  const vhost = await require('./own-broker').benchVhost(label);
  try {
    const stack = await startLocalStack({
      name: `bench_${label}_${process.pid}`,
      isolate: true,
      ports: 'free',
      pgUrl: process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
      amqpUrl: vhost.url,
      redisUrl: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/13',
      output: 'buffer',
      env: { LOG_LEVEL: 'warn' },
      ...options,
    });
    const stopStack = stack.stop;
    return Object.assign(stack, {
      async stop() {
        await stopStack();
        await vhost.close();
      },
    });
  } catch (err) {
    await vhost.close();
    throw err;
  }
}

module.exports = {
  JOURNEY_PAUSES,
  withClient,
  postgresPids,
  committed,
  brokerCounts,
  deadLetterCount,
  cpuWatch,
  runOrder,
  percentile,
  summarise,
  byWindow,
  startAllInOne,
  serverPids,
  startBenchStack,
  metricSum,
  metricSeries,
  api,
  answerSheet,
  importStudents,
  freePort,
  startNode,
  stopAll,
  killAllNow,
  waitUntilReady,
  measure,
  writeSection,
  cpuSeconds,
  descendants,
};
