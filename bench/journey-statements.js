'use strict';
/**
 * The statements one student's journey sends to PostgreSQL, call by call and service by service: the whole stack
 * (one process per service, as `make stack` runs it), students taken one at a time through the journey of the
 * enrolment peak (open the link, load, start, three autosaves, one upload, submit), and after each call every
 * service's `db_queries_total` read once it has stopped moving, so what a call sets off (its events, their
 * consumers, the relays) is counted with it. The goal (issue 24): at most 15 statements of the student service
 * per journey.
 *
 * Results replace this benchmark's section of docs/benchmarks.md and are printed. About a minute; local
 * PostgreSQL, RabbitMQ and Redis.
 */
const path = require('node:path');
const { randomUUID } = require('node:crypto');
const { api, answerSheet, importStudents, metricSum, startBenchStack, writeSection } = require('./lib');

const ROOT = path.resolve(__dirname, '..');
const RESULTS_FILE = path.join(ROOT, 'docs', 'benchmarks.md');
const SERVICES = ['auth', 'assessment', 'student', 'results', 'report', 'notification'];
const STUDENTS = Number(process.env.BENCH_JOURNEY_STUDENTS ?? 10);
const ADMIN = { email: 'bench-admin@example.edu', password: 'journey-statements-admin-password' };
const GOAL = 15;
/** How long the services are watched with no student about, for their background statements. */
const QUIET_MS = 30_000;

const out = (line = '') => process.stdout.write(`${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A student's call: its status must be 2xx, or the count means nothing. */
async function studentCall(base, method, url, init = {}) {
  const res = await fetch(`${base}${url}`, { method, ...init });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

const json = (body, headers = {}) => ({
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

/** A small PDF, as the peak's students upload. */
const SMALL_PDF = Buffer.concat([
  Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj << /Type /Catalog >> endobj\n', 'latin1'),
  Buffer.alloc(2048, 0x20),
  Buffer.from('\n%%EOF\n'),
]);

async function main() {
  const stack = await startBenchStack('statements', {
    serviceEnv: { auth: { SEED_ADMIN_EMAIL: ADMIN.email, SEED_ADMIN_PASSWORD: ADMIN.password } },
  });
  // Each read asks for db_queries_total alone, which costs no statement (the outbox gauges are not collected).
  const read = () =>
    Promise.all(SERVICES.map((s) => metricSum(stack.service(s).internalUrl, 'db_queries_total')));
  const SPACING_MS = 250;
  const WINDOW = 4;
  /** The counters once nothing moved them for a second: what a call set off has finished. */
  async function settled() {
    const seen = [await read()];
    for (;;) {
      await sleep(SPACING_MS);
      seen.push(await read());
      if (seen.length <= WINDOW) continue;
      const first = seen.at(-1 - WINDOW);
      if (seen.at(-1).every((v, i) => v === first[i])) return seen.at(-1);
    }
  }
  const perCall = new Map();
  let background = SERVICES.map(() => 0);
  let journeySeconds = 0;
  async function counted(name, fn) {
    const before = await settled();
    const value = await fn();
    const after = await settled();
    const row = perCall.get(name) ?? { calls: 0, statements: SERVICES.map(() => 0) };
    row.calls++;
    after.forEach((v, i) => (row.statements[i] += v - before[i]));
    perCall.set(name, row);
    return value;
  }
  try {
    const base = stack.gatewayUrl;
    const { token } = await api(base, 'POST', '/api/auth/login', { json: ADMIN });
    const sheet = await answerSheet(base, token);
    const { students } = await importStudents(base, token, 'statements', STUDENTS);
    // What the services send with no student about (the deadline job's pass, the relays' checks), per second: a
    // journey one at a time lasts long enough for some of it to fall inside its calls.
    const quietFrom = await settled();
    const quietStart = Date.now();
    await sleep(QUIET_MS);
    const quietTo = await settled();
    background = quietTo.map((v, i) => (v - quietFrom[i]) / ((Date.now() - quietStart) / 1000));
    out(`Statements per call of ${STUDENTS} journeys, one student at a time`);
    const journeysStart = Date.now();
    for (const student of students) {
      const l = `/api/student/${student.token}`;
      const answers = student.passes ? sheet.pass : sheet.fail;
      await counted('open link', () => studentCall(base, 'GET', l));
      await counted('load assessment', () => studentCall(base, 'GET', `${l}/assessment`));
      const started = await counted('start', () => studentCall(base, 'POST', `${l}/start`));
      const attemptId = started.attempt.id;
      for (let seq = 1; seq <= 3; seq++) {
        const part = answers.slice(0, Math.ceil((answers.length * seq) / 3));
        await counted('autosave', () =>
          studentCall(base, 'PUT', `${l}/answers`, json({ attemptId, seq, answers: part })),
        );
      }
      const form = new FormData();
      form.append('attemptId', attemptId);
      form.append('questionId', sheet.fileQuestionId);
      form.append('file', new Blob([SMALL_PDF], { type: 'application/pdf' }), 'enrolment-form.pdf');
      await counted('upload file', () => studentCall(base, 'POST', `${l}/files`, { body: form }));
      await counted('submit, and what follows', () =>
        studentCall(
          base,
          'POST',
          `${l}/submit`,
          json(
            { attemptId, answers, timeSpent: 1, startedAt: new Date().toISOString() },
            { 'idempotency-key': `submit-${randomUUID()}` },
          ),
        ),
      );
    }
    journeySeconds = (Date.now() - journeysStart) / 1000 / STUDENTS;
  } finally {
    await stack.stop();
  }

  const rows = [];
  const journey = SERVICES.map(() => 0);
  for (const [name, row] of perCall) {
    const each = row.statements.map((s) => s / STUDENTS);
    each.forEach((v, i) => (journey[i] += v));
    const perCallOfIt = row.calls / STUDENTS;
    rows.push(
      `| ${name}${perCallOfIt > 1 ? ` (×${perCallOfIt})` : ''} | ${each.map((v) => v.toFixed(1)).join(' | ')} |`,
    );
    out(`  ${name.padEnd(26)} ${SERVICES.map((s, i) => `${s} ${each[i].toFixed(1)}`).join(', ')}`);
  }
  rows.push(`| **whole journey** | ${journey.map((v) => `**${v.toFixed(1)}**`).join(' | ')} |`);
  const quiet = background.map((rate) => rate * journeySeconds);
  rows.push(`| of which background | ${quiet.map((v) => v.toFixed(1)).join(' | ')} |`);
  const caused = journey.map((v, i) => Math.max(0, v - quiet[i]));
  rows.push(`| **caused by the journey** | ${caused.map((v) => `**${v.toFixed(1)}**`).join(' | ')} |`);
  const at = SERVICES.indexOf('student');
  const student = caused[at];
  out(
    `  whole journey: student service ${journey[at].toFixed(1)} statements, of which ${quiet[at].toFixed(1)} background` +
      ` (${background[at].toFixed(2)}/s over ${journeySeconds.toFixed(1)} s): ${student.toFixed(1)} caused (goal ≤ ${GOAL})`,
  );
  writeSection(
    RESULTS_FILE,
    'journey-statements',
    `## One journey's statements, call by call

Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`node bench/journey-statements.js\`:
the stack (one process per service), ${STUDENTS} students taken one at a time through the peak's journey, every
service's \`db_queries_total\` read before and after each call once it had stopped moving, so what a call sets off
(its events, their consumers, the relays, the certificate for the passing half) counts with it. Means per student.
Each read asks for \`/metrics?name=db_queries_total\`, which collects no other metric and so costs no statement.
A journey taken this slowly (${journeySeconds.toFixed(0)} s, each call waited on until every counter stood still for a second) also
counts what the services send with no student about (the deadline job's pass every 10 s, each relay's check every
30 s): that background was measured for ${QUIET_MS / 1000} s before the journeys (student service ${background[at].toFixed(2)} statements
a second) and is subtracted in the last row. Goal: at most ${GOAL} statements of the student service caused by a journey:
**${student <= GOAL ? 'met' : 'not met'}** (${student.toFixed(1)}; ${journey[at].toFixed(1)} with the background).

| Call | ${SERVICES.join(' | ')} |
| --- | ${SERVICES.map(() => '---').join(' | ')} |
${rows.join('\n')}`,
  );
  out(`written to ${path.relative(ROOT, RESULTS_FILE)}`);
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${err.stack ?? err}\n`);
    process.exit(1);
  },
);
