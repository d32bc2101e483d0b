'use strict';
/**
 * The Live screen at an enrolment peak (issue 26): 5,000 attempts in progress (BENCH_LIVE_ATTEMPTS), their pages
 * each holding the event stream that tells them of an admin's extension or end, and an admin's screen polling the
 * list every 4 s.
 *
 * - The list's answer time through the gateway (first page, a search, a page deep in the list), one call after the
 *   other, and the CPU one call costs the student service and the gateway: what one connected admin costs every
 *   4 s. Goal: p99 under 100 ms.
 * - With every page's stream open through the gateway: the student service's statements a second (one read of
 *   all the clocks every 2.5 s, the pages marked seen every 30 s), the CPU a second of the student service and the
 *   gateway, and how long an extension takes to reach its page.
 *
 * The attempts are written straight into the student service's database (the students are imported through the
 * API): this measures the Live screen, not the Start. Results replace this benchmark's section of
 * docs/benchmarks.md and are printed. About two minutes; local PostgreSQL, RabbitMQ and Redis.
 */
const http = require('node:http');
const path = require('node:path');
const { Pool } = require('pg');
const { api, cpuSeconds, importStudents, metricSum, startBenchStack, writeSection } = require('./lib');

const ROOT = path.resolve(__dirname, '..');
const RESULTS_FILE = path.join(ROOT, 'docs', 'benchmarks.md');
const N = Number(process.env.BENCH_LIVE_ATTEMPTS ?? 5000);
const CALLS = 200;
const STREAM_SECONDS = 30;
const ADMIN = { email: 'bench-admin@example.edu', password: 'live-attempts-admin-password' };
const GOAL_P99_MS = 100;

const out = (line = '') => process.stdout.write(`${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

/** `calls` answers of GET `url`, one after the other: p50, p99 and CPU per call of the watched processes. */
async function timed(base, url, token, pids) {
  const times = [];
  const before = pids.map((pid) => cpuSeconds(pid));
  for (let i = 0; i < CALLS; i++) {
    const t0 = process.hrtime.bigint();
    await api(base, 'GET', url, { token });
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  const cpuMs = pids.map((pid, i) => ((cpuSeconds(pid) - before[i]) * 1000) / CALLS);
  times.sort((a, b) => a - b);
  return { p50: quantile(times, 0.5), p99: quantile(times, 0.99), cpuMs };
}

/** Opens a page's event stream; resolves once its first event arrived, with a way to wait for the next. */
function follow(base, token) {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}/api/student/${token}/events`, { agent: false }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`events answered ${res.statusCode}`));
        res.resume();
        return;
      }
      res.setEncoding('utf8');
      let events = 0;
      res.on('data', (chunk) => {
        const found = chunk.split('event: attempt').length - 1;
        if (found === 0) return;
        events += found;
        if (events === 1) resolve(page);
        for (const w of page.waiters.splice(0)) w();
      });
      res.on('error', () => {});
    });
    const page = {
      req,
      nextEvent: () => new Promise((r) => page.waiters.push(r)),
      waiters: [],
    };
    req.on('error', reject);
  });
}

async function main() {
  out(`Live attempts: ${N} attempts in progress, their pages following, one admin polling`);
  const stack = await startBenchStack('live', {
    serviceEnv: {
      auth: { SEED_ADMIN_EMAIL: ADMIN.email, SEED_ADMIN_PASSWORD: ADMIN.password },
      // Every page connects from this one address.
      gateway: {
        RATE_LIMIT_API: '100000000',
        RATE_LIMIT_STUDENT: '100000000',
        RATE_LIMIT_STUDENT_TOKEN: '100000000',
      },
      // The same address holds every stream, and the replica all of them.
      student: { ATTEMPT_STREAMS_PER_ADDRESS: String(N + 100), ATTEMPT_STREAMS_MAX: String(N + 100) },
    },
  });
  const pool = new Pool({ connectionString: stack.service('student').databaseUrl, max: 2 });
  const pages = [];
  try {
    const base = stack.gatewayUrl;
    const { token } = await api(base, 'POST', '/api/auth/login', { json: ADMIN });
    const { students, domain } = await importStudents(base, token, 'live', N);
    // Wait for the student service's copy of the seeded version, then start every attempt at once, their deadlines
    // spread over the next half hour, half of them with answers saved.
    for (;;) {
      const { rows } = await pool.query('SELECT version_id, content FROM assessment_versions LIMIT 1');
      if (rows[0]) {
        const answers = rows[0].content.questions
          .filter((q) => q.type !== 'file_upload')
          .slice(0, 5)
          .map((q) => ({ questionId: q.id, answer: q.correctAnswer ?? 'yes' }));
        await pool.query(
          `WITH s AS (UPDATE students SET status = 'started' WHERE email LIKE $1 RETURNING id)
           INSERT INTO attempts (student_id, attempt_number, version_id, deadline_at, answers, saved_at)
           SELECT s.id, 1, $2, now() + (random() * interval '30 minutes') + interval '5 minutes',
             CASE WHEN random() < 0.5 THEN $3::jsonb ELSE '[]'::jsonb END,
             CASE WHEN random() < 0.5 THEN now() - random() * interval '5 minutes' END
           FROM s`,
          [`%@${domain}`, rows[0].version_id, JSON.stringify(answers)],
        );
        break;
      }
      await sleep(250);
    }
    // The import's invitations go on through the other services (results' copies, 5,000 mails): measure once they
    // are done, so the list is timed on a quiet machine as an admin would meet it after an enrolment wave.
    const SERVICES = ['auth', 'assessment', 'student', 'results', 'report', 'notification'];
    const statements = async () =>
      (
        await Promise.all(SERVICES.map((s) => metricSum(stack.service(s).internalUrl, 'db_queries_total')))
      ).reduce((a, b) => a + b, 0);
    for (let last = -1, still = 0, waited = 0; still < 3 && waited < 180; waited++) {
      const now = await statements();
      still = now - last < 5 ? still + 1 : 0;
      last = now;
      await sleep(1000);
    }
    const student = stack.service('student').pid;
    const gateway = stack.service('gateway').pid;
    const lists = {};
    for (const [name, url] of [
      // A baseline of the same run: the students list's first page, through the same gateway and admin check.
      ['students list (baseline)', '/api/admin/students?limit=25'],
      ['first page', '/api/admin/live?limit=25'],
      ['a search', `/api/admin/live?limit=25&search=${encodeURIComponent('live 42')}`],
      ['page 150', '/api/admin/live?limit=25&page=150'],
    ]) {
      await timed(base, url, token, []);
      lists[name] = await timed(base, url, token, [student, gateway]);
      const r = lists[name];
      out(
        `  list, ${name}: p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, CPU a call: student ${r.cpuMs[0].toFixed(2)} ms, gateway ${r.cpuMs[1].toFixed(2)} ms`,
      );
    }

    // Every page follows its attempt through the gateway.
    const opening = Date.now();
    for (let i = 0; i < students.length; i += 250) {
      pages.push(...(await Promise.all(students.slice(i, i + 250).map((s) => follow(base, s.token)))));
    }
    const openSeconds = (Date.now() - opening) / 1000;
    out(`  ${pages.length} streams open in ${openSeconds.toFixed(1)} s`);
    await sleep(5_000);
    const q0 = await metricSum(stack.service('student').internalUrl, 'db_queries_total');
    const c0 = [cpuSeconds(student), cpuSeconds(gateway)];
    await sleep(STREAM_SECONDS * 1000);
    const q1 = await metricSum(stack.service('student').internalUrl, 'db_queries_total');
    const c1 = [cpuSeconds(student), cpuSeconds(gateway)];
    const streaming = {
      statementsPerSecond: (q1 - q0) / STREAM_SECONDS,
      cpuPerSecondMs: c1.map((c, i) => ((c - c0[i]) * 1000) / STREAM_SECONDS),
    };
    out(
      `  streaming: student ${streaming.statementsPerSecond.toFixed(2)} statements/s, CPU student ${streaming.cpuPerSecondMs[0].toFixed(1)} ms/s, gateway ${streaming.cpuPerSecondMs[1].toFixed(1)} ms/s`,
    );
    // An extension reaches its page.
    const reach = [];
    for (let i = 0; i < 5; i++) {
      const target = students[i * 97];
      const page = pages[i * 97];
      const { rows } = await pool.query(
        'SELECT a.id FROM attempts a JOIN students s ON s.id = a.student_id WHERE s.id = $1',
        [target.id],
      );
      const arrived = page.nextEvent();
      const t0 = Date.now();
      await api(base, 'POST', `/api/admin/live/${rows[0].id}/extend`, { token, json: { minutes: 5 } });
      await arrived;
      reach.push(Date.now() - t0);
    }
    const busy = await timed(base, '/api/admin/live?limit=25', token, [student, gateway]);
    out(`  an extension reached its page in ${reach.map((ms) => `${ms} ms`).join(', ')}`);
    out(`  list with every stream open: p50 ${busy.p50.toFixed(1)} ms, p99 ${busy.p99.toFixed(1)} ms`);

    const met =
      Object.entries(lists).every(([name, r]) => name.includes('baseline') || r.p99 < GOAL_P99_MS) &&
      busy.p99 < GOAL_P99_MS;
    const listRows = Object.entries(lists)
      .map(
        ([name, r]) =>
          `| ${name} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.cpuMs[0].toFixed(2)} | ${r.cpuMs[1].toFixed(2)} |`,
      )
      .join('\n');
    writeSection(
      RESULTS_FILE,
      'live-attempts',
      `## The Live screen at a peak

Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`node bench/live.js\`: ${N} attempts in
progress (the students imported through the API, the attempts written into the student service's database with
deadlines over the next half hour, half with answers saved), the whole stack one process per service. Goal: the
list's p99 under ${GOAL_P99_MS} ms: **${met ? 'met' : 'not met'}**.

The list through the gateway, ${CALLS} calls one after the other (an admin's screen asks once every 4 s, so the CPU
of one call is what one connected admin costs every 4 s):

| Page | p50 ms | p99 ms | student CPU ms a call | gateway CPU ms a call |
| --- | --- | --- | --- | --- |
${listRows}
| first page, every stream open | ${busy.p50.toFixed(1)} | ${busy.p99.toFixed(1)} | ${busy.cpuMs[0].toFixed(2)} | ${busy.cpuMs[1].toFixed(2)} |

Every attempt's page following it (${pages.length} event streams through the gateway, opened in
${openSeconds.toFixed(1)} s), measured over ${STREAM_SECONDS} s: the student service sent
${streaming.statementsPerSecond.toFixed(2)} statements a second (all the clocks read in one statement every 2.5 s,
the pages marked seen every 30 s) and used ${streaming.cpuPerSecondMs[0].toFixed(1)} ms of CPU a second, the gateway
${streaming.cpuPerSecondMs[1].toFixed(1)} ms (the streams' pings every 20 s). An extension reached its page in
${reach.map((ms) => `${ms} ms`).join(', ')} (within the 2.5 s check, as designed).`,
    );
    if (!met) process.exitCode = 1;
  } finally {
    for (const p of pages) p.req.destroy();
    await pool.end();
    await stack.stop();
  }
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
