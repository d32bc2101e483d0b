'use strict';
/**
 * What an idle product asks of PostgreSQL: the whole stack (one process per service, as `make stack` runs it) left
 * alone, and the statements each service sends counted from its `db_queries_total` over a minute. The goal
 * (issue 24): at most 0.2 statements a second per idle service. What each idle service costs the machine: its CPU
 * and how often it wakes (voluntary context switches, every thread) over the same minute. And what it costs the broker: on a RabbitMQ node of
 * the bench's own set as deployed (own-broker.js; BENCH_OWN_RABBITMQ=0 uses the machine's), the node's CPU over the
 * same minute and the queues it keeps.
 *
 * Results replace this benchmark's section of docs/benchmarks.md and are printed. About a minute and a half; local
 * PostgreSQL, RabbitMQ and Redis.
 */
const fs = require('node:fs');
const path = require('node:path');
const { cpuSeconds, metricSum, startBenchStack, writeSection } = require('./lib');
const ownBroker = require('./own-broker');

const ROOT = path.resolve(__dirname, '..');
const RESULTS_FILE = path.join(ROOT, 'docs', 'benchmarks.md');
const SERVICES = ['auth', 'assessment', 'student', 'results', 'report', 'notification', 'integrations'];
/** Every process of the product, the gateway too (it sends no statements). */
const PROCESSES = ['gateway', ...SERVICES];
const SETTLE_S = 20;
const COUNT_S = Number(process.env.BENCH_IDLE_SECONDS ?? 60);
const GOAL = 0.2;

const out = (line = '') => process.stdout.write(`${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** How often a process has slept and been woken so far, over all its threads. */
function wakeups(pid) {
  return fs.readdirSync(`/proc/${pid}/task`).reduce((sum, task) => {
    const status = fs.readFileSync(`/proc/${pid}/task/${task}/status`, 'utf8');
    return sum + Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)[1]);
  }, 0);
}

/** Statements a second per service, and each process's CPU and wake-ups a second, the stack started and left idle. */
async function idleStatements(own) {
  const stack = await startBenchStack('idle');
  try {
    // Start-up done: migrations, the seed, the first relay passes and subscriptions.
    await sleep(SETTLE_S * 1000);
    const read = () =>
      Promise.all(SERVICES.map((s) => metricSum(stack.service(s).internalUrl, 'db_queries_total')));
    const brokerPid = Number(process.env.BENCH_RABBITMQ_PID);
    const pids = PROCESSES.map((p) => stack.service(p).pid);
    const before = await read();
    const brokerBefore = brokerPid ? cpuSeconds(brokerPid) : 0;
    const processBefore = pids.map((pid) => [cpuSeconds(pid), wakeups(pid)]);
    await sleep(COUNT_S * 1000);
    const processes = Object.fromEntries(
      PROCESSES.map((p, i) => [
        p,
        {
          cpuMsPerSecond: ((cpuSeconds(pids[i]) - processBefore[i][0]) * 1000) / COUNT_S,
          wakeupsPerSecond: (wakeups(pids[i]) - processBefore[i][1]) / COUNT_S,
        },
      ]),
    );
    const after = await read();
    const broker = brokerPid ? { cpuPerSecond: (cpuSeconds(brokerPid) - brokerBefore) / COUNT_S } : undefined;
    const statements = Object.fromEntries(SERVICES.map((s, i) => [s, (after[i] - before[i]) / COUNT_S]));
    const queues = own ? await own.queueCount() : 0;
    return { statements, broker, queues, processes };
  } finally {
    await stack.stop();
  }
}

async function main() {
  out(`Idle statements: each service's db_queries_total over ${COUNT_S} s after ${SETTLE_S} s of start-up`);
  const own = ownBroker.wantsOwnBroker() ? await ownBroker.useOwnBroker() : undefined;
  const { statements: idle, broker, queues, processes } = await idleStatements(own);
  own?.stop();
  out(`  ${SERVICES.map((s) => `${s} ${idle[s].toFixed(2)}`).join(', ')}`);
  const brokerLine = broker
    ? `The broker, a node of the bench's own set as deployed (\`bench/own-broker.js\`), spent **${(broker.cpuPerSecond * 1000).toFixed(1)} ms of CPU a second** over the same ${COUNT_S} s, with the product's ${queues} queues.`
    : "The broker was the machine's (BENCH_OWN_RABBITMQ=0): its CPU is not measured.";
  out(`  ${brokerLine}`);
  const cpuTotal = PROCESSES.reduce((sum, p) => sum + processes[p].cpuMsPerSecond, 0);
  const processRows = PROCESSES.map(
    (p) =>
      `| ${p} | ${processes[p].cpuMsPerSecond.toFixed(1)} | ${processes[p].wakeupsPerSecond.toFixed(1)} |`,
  ).join('\n');
  out(
    `  CPU ms a second: ${PROCESSES.map((p) => `${p} ${processes[p].cpuMsPerSecond.toFixed(1)}`).join(', ')}`,
  );
  const met = Object.values(idle).every((v) => v <= GOAL);
  const rows = SERVICES.map((s) => `| ${s} | ${idle[s].toFixed(2)} |`).join('\n');
  writeSection(
    RESULTS_FILE,
    'idle-statements',
    `## An idle product: statements to PostgreSQL, and the broker

Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`node bench/idle.js\`: the stack
started (one process per service against the local PostgreSQL, RabbitMQ and Redis), left alone ${SETTLE_S} s, then
each service's \`db_queries_total\` counted over ${COUNT_S} s. Goal: at most ${GOAL} statements a second per idle
service: **${met ? 'met' : 'not met'}**.

| Service | statements a second |
| --- | --- |
${rows}

Until 2026-11-27 every relay polled each second with a transaction of three statements (about 3.0 statements a
second per idle service). What remains is each relay's check every 30 s (when is the next pending row due?), its sweep of old sent
rows every minute, the student service's deadline job every 10 s (one \`EXISTS\` while nothing is overdue) and the
report service's sweep for certificates still to issue (\`CERTIFICATE_SWEEP_SECONDS\`).

${brokerLine}

What each idle process costs the machine over the same ${COUNT_S} s (CPU from /proc; wake-ups are its threads'
voluntary context switches): **${cpuTotal.toFixed(1)} ms of CPU a second for the whole product**.

| Process | CPU, ms a second | wake-ups a second |
| --- | --- | --- |
${processRows}

Until 2026-12-04 every process sampled its event loop every 10 ms (prom-client's default) and the student service a
second time every 20 ms for the waiting room: about 100 and 150 wake-ups a second, 5 to 9 ms of CPU a second each,
about 50 to 80 ms a second for the product, which a peak of 390 s pays as about 3.5 ms a journey. Now both sample
every 100 ms (\`EVENT_LOOP_SAMPLE_MS\`), and the waiting room's sampling stops while its line is quiet.`,
  );
  out(`written to ${path.relative(ROOT, RESULTS_FILE)}`);
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
