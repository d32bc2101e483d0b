'use strict';
/**
 * The bare journey: what a student's journey of the enrolment peak costs when it does only the work the product
 * needs by design, measured on the same machine, with the same students, arrival window and load processes as the
 * peak (`bench/peak.js` runs it in the same run and divides by it). Per student, through one bare proxy
 * (`bare-proxy.js`) to one bare Express app (`bare-app.js`):
 * - the peak's eight HTTP calls with the same bodies (`peak-worker.js` makes them): open the link, load the
 *   assessment, start, three autosaves, one 2 KB upload, submit; each call one prepared statement, so one
 *   transaction and one commit;
 * - the events the product publishes on the way (attempt started, attempt submitted, result recorded, and for a
 *   passing student the certificate issued) through RabbitMQ quorum queues with publisher confirms, each delivered
 *   to as many queues as the product's consumer table (`proto/src/consumers.ts`) names for it, each delivery one
 *   prepared INSERT (one commit) and an ack;
 * - the upload's object stored in the embedded S3 server with the product's client (minio);
 * - for a passing student (half, as in the peak), the certificate stamped into a template by the report service's
 *   press (pdf-lib, no browser) and mailed with it to an SMTP catcher with nodemailer.
 *
 * CPU of every process from /proc, as the peak counts it. Alone (`node bench/bare-journey.js`, BENCH_STUDENTS,
 * default 5,000, BENCH_WINDOW_SECONDS 60) it uses an assessment of its own (12 questions) and writes the
 * `bare-journey` section of docs/benchmarks.md (`bare-journey-<n>` for another count); the peak passes the
 * product's assessment page and answer sheet.
 */
const crypto = require('node:crypto');
const { fork } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Client } = require('pg');
const {
  JOURNEY_PAUSES,
  brokerCounts,
  committed,
  cpuWatch,
  freePort,
  postgresPids,
  runOrder,
  serverPids,
  startNode,
  stopAll,
  summarise,
  waitUntilReady,
  writeSection,
} = require('./lib');
const { benchVhost, useOwnBroker, wantsOwnBroker } = require('./own-broker');

const ROOT = path.resolve(__dirname, '..');
/** Read when used: the peak sets it to the cluster of its own it started. */
const pgAdminUrl = () => process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CERTIFICATE_SUBJECT = 'Congratulations! Your certificate';
/** The events of a journey, in its order; the last only for a passing student. */
const JOURNEY_EVENTS = [
  'student.attempt.started.v1',
  'student.attempt.submitted.v1',
  'results.result.recorded.v1',
  'report.certificate.issued.v2',
];
const out = (line = '') => process.stdout.write(`${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Each journey event and the product's consumer queues of it, from the contracts' consumer table. */
function productRoutes() {
  const { consumerQueues } = require('@readiness/contracts');
  return Object.fromEntries(
    JOURNEY_EVENTS.map((event) => [
      event,
      consumerQueues
        // As deployed with no webhook endpoint and no LMS connection, as the peak runs: the queues bound on demand
        // take none of these events (docs/events.md, "Bound on demand").
        .filter((q) => !q.onDemand && q.events.includes(event))
        .map((q) => q.queue),
    ]),
  );
}

/** What a journey needs by design: a commit per call and per delivery, the events and their deliveries. */
function designCounts(routes, students, passes) {
  const [started, submitted, recorded, issued] = JOURNEY_EVENTS.map((e) => routes[e].length);
  const published = students * 3 + passes;
  const delivered = students * (started + submitted + recorded) + passes * issued;
  return { calls: students * 8, published, delivered, commits: students * 8 + delivered };
}

/** An assessment of its own for a run alone: 12 questions of four options, the student's page and the sheet. */
function ownAssessment() {
  const questions = Array.from({ length: 12 }, (_, i) => ({
    id: `q${i + 1}`,
    type: 'multiple_choice',
    text: `Question ${i + 1}: which of these is right for the enrolment form, section ${i + 1}?`,
    options: ['a', 'b', 'c', 'd'].map((o) => ({ id: `q${i + 1}${o}`, text: `Option ${o.toUpperCase()}` })),
  }));
  questions.push({ id: 'q13', type: 'file_upload', text: 'Upload your signed enrolment form (PDF).' });
  const page = JSON.stringify({
    assessment: { title: 'Enrolment readiness', timeLimitMinutes: 30, questions },
  });
  const choice = questions.filter((q) => q.options);
  return {
    page,
    sheet: {
      pass: choice.map((q) => ({ questionId: q.id, answer: q.options[0].id })),
      fail: choice.map((q) => ({ questionId: q.id, answer: q.options[1].id })),
      fileQuestionId: 'q13',
    },
  };
}

async function createDatabase(name, page, sheet, students) {
  const admin = new Client({ connectionString: pgAdminUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(pgAdminUrl());
  url.pathname = `/${name}`;
  const db = new Client({ connectionString: url.toString() });
  await db.connect();
  try {
    await db.query(`
      CREATE TABLE assessments (id int PRIMARY KEY, page text NOT NULL, key jsonb NOT NULL);
      CREATE TABLE students (
        id uuid PRIMARY KEY, token text NOT NULL UNIQUE, name text NOT NULL, email text NOT NULL,
        assessment_id int NOT NULL REFERENCES assessments, status text NOT NULL DEFAULT 'invited');
      CREATE TABLE attempts (
        id uuid PRIMARY KEY, student_id uuid NOT NULL UNIQUE REFERENCES students, status text NOT NULL,
        seq int NOT NULL DEFAULT 0, answers jsonb NOT NULL DEFAULT '[]', files jsonb NOT NULL DEFAULT '{}',
        started_at timestamptz NOT NULL DEFAULT now(), saved_at timestamptz, submitted_at timestamptz);
      CREATE TABLE consumed (queue text NOT NULL, event_id uuid NOT NULL, body jsonb NOT NULL,
        PRIMARY KEY (queue, event_id));`);
    await db.query('INSERT INTO assessments (id, page, key) VALUES (1, $1, $2)', [
      page,
      JSON.stringify(sheet.pass),
    ]);
    await db.query(
      `INSERT INTO students (id, token, name, email, assessment_id)
       SELECT * , 1 FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[])`,
      [
        students.map((s) => s.id),
        students.map((s) => s.token),
        students.map((s) => s.name),
        students.map((s) => s.email),
      ],
    );
    await db.query('VACUUM ANALYZE');
  } finally {
    await db.end();
  }
  return url.toString();
}

async function dropDatabase(name) {
  const admin = new Client({ connectionString: pgAdminUrl() });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}

/**
 * Runs the bare journey for `students` students arriving over `arrivalSeconds`, with `pauses` as the peak's, and
 * resolves with its figures. `workers` are the peak's load processes (forked here when not given); `page` and
 * `sheet` the assessment (the product's, or one of its own).
 */
async function runBareJourney({
  students: n,
  arrivalSeconds,
  pauses,
  workers,
  workerCount = 2,
  page,
  sheet,
}) {
  const { spawnEmbeddedS3, startMailCatcher } = require('@readiness/dev-servers');
  const runId = `${process.pid}_${crypto.randomBytes(3).toString('hex')}`;
  const database = `bench_bare_${runId}`;
  const domain = `bare-${runId.replace('_', '-')}.bench.example.edu`;
  const students = Array.from({ length: n }, (_, i) => ({
    id: crypto.randomUUID(),
    token: crypto.randomBytes(24).toString('base64url'),
    name: `Student bare ${i}`,
    email: `s${i}@${domain}`,
    passes: i % 2 === 0,
  }));
  const passes = students.filter((s) => s.passes).length;
  const routes = productRoutes();
  const design = designCounts(routes, n, passes);
  const logFile = path.join(os.tmpdir(), `bench-bare-${runId}.log`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-bare-'));
  const ownWorkers = !workers;
  const loaders =
    workers ??
    Array.from({ length: workerCount }, () =>
      fork(path.join(__dirname, 'peak-worker.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
    );
  const databaseUrl = await createDatabase(database, page, sheet, students);
  out(`      bare journey: database ${database} with ${n} students; log ${logFile}`);
  const vhost = await benchVhost('bare');
  const s3 = await spawnEmbeddedS3({ directory: path.join(dataDir, 's3') });
  const mail = await startMailCatcher({ capacity: n + 100 });
  try {
    const [appPort, proxyPort] = [await freePort(), await freePort()];
    const app = startNode(
      'bare app',
      path.join(__dirname, 'bare-app.js'),
      {
        PORT: String(appPort),
        DATABASE_URL: databaseUrl,
        AMQP_URL: vhost.url,
        ROUTES: JSON.stringify(routes),
        ...s3.env,
        BUCKET: 'bare',
        SMTP_URL: mail.url,
        CERTIFICATE_SUBJECT,
        ...(process.env.BARE_DEBUG ? { BARE_DEBUG: '1' } : {}),
      },
      logFile,
    );
    const appUrl = `http://127.0.0.1:${appPort}`;
    await waitUntilReady(app, `${appUrl}/internal/counts`, 60_000);
    const proxy = startNode(
      'bare proxy',
      path.join(__dirname, 'bare-proxy.js'),
      { PORT: String(proxyPort), UPSTREAM: appUrl },
      logFile,
    );
    const proxyUrl = `http://127.0.0.1:${proxyPort}`;
    await waitUntilReady(proxy, `${proxyUrl}/internal/counts`, 30_000);
    out(`      bare proxy and app ready; ${n} students arrive over ${arrivalSeconds} s`);
    const appCounts = async () => (await fetch(`${appUrl}/internal/counts`)).json();

    const groups = {
      'bare proxy': () => [proxy.child.pid],
      'bare app': () => [app.child.pid],
      PostgreSQL: () => postgresPids([database]),
      RabbitMQ: () => serverPids().RabbitMQ,
      'object storage': () => [s3.child.pid],
      'load generators': () => loaders.map((w) => w.pid),
    };
    const watch = cpuWatch(groups);
    const commitsBefore = await committed(pgAdminUrl(), [database]);
    const brokerBefore = await brokerCounts(vhost.vhost);
    const consumedBefore = (await appCounts()).consumed;
    watch.start();
    const t0 = Date.now() + 1_000;
    const run = await runOrder(
      loaders,
      students.map((s) => ({ ...s, arrivalMs: Math.random() * arrivalSeconds * 1000 })),
      { kind: 'journey', gateway: proxyUrl, t0, sheet, pauses },
    );
    const loadEndMs = Date.now() - t0;
    out(`      last student done at ${(loadEndMs / 1000).toFixed(1)} s; waiting for the events and mails`);
    const submitted = run.students.filter((s) => s.submitStatus >= 200 && s.submitStatus < 300);
    const expected = consumedBefore + design.delivered;
    const deadline = Date.now() + 600_000;
    const summary = summarise(run.calls);
    for (const [name, c] of Object.entries(summary))
      if (c.errors) out(`      ${name}: ${c.errors} errors of ${c.calls}: ${JSON.stringify(c.failures)}`);
    let counts;
    let told = Date.now();
    for (;;) {
      counts = await appCounts();
      const mailed = mail.list().filter((m) => m.to.some((t) => t.endsWith(`@${domain}`))).length;
      if (counts.consumed >= expected && mailed >= passes) break;
      if (Date.now() - told > 15_000) {
        told = Date.now();
        out(
          `      consumed ${counts.consumed - consumedBefore} of ${design.delivered}, mailed ${mailed} of ${passes}; ${JSON.stringify(counts)}`,
        );
      }
      if (Date.now() > deadline) throw new Error(`the bare journey did not drain: ${JSON.stringify(counts)}`);
      await sleep(250);
    }
    const drainedMs = Date.now() - t0;
    await sleep(3_000);
    const processes = watch.stop();
    // PostgreSQL flushes a backend's counts when it has been idle a while; the management API samples every 5 s.
    await sleep(11_000);
    const commits = (await committed(pgAdminUrl(), [database])) - commitsBefore - 1;
    const brokerAfter = await brokerCounts(vhost.vhost);
    const broker =
      brokerBefore && brokerAfter
        ? Object.fromEntries(Object.keys(brokerAfter).map((k) => [k, brokerAfter[k] - brokerBefore[k]]))
        : undefined;
    const db = new Client({ connectionString: databaseUrl });
    await db.connect();
    const effects = (
      await db.query(`SELECT
        (SELECT count(*) FILTER (WHERE status = 'submitted') FROM attempts)::int AS submitted,
        (SELECT count(*) FILTER (WHERE files <> '{}') FROM attempts)::int AS files,
        (SELECT count(*) FROM consumed)::int AS consumed,
        (SELECT count(*) FROM consumed WHERE queue = 'results.attempt-submitted')::int AS results,
        (SELECT count(*) FROM consumed WHERE body ? 'code')::int AS certificates`)
    ).rows[0];
    await db.end();
    const mails = mail.list().filter((m) => m.to.some((t) => t.endsWith(`@${domain}`)));
    effects.mails = mails.length;
    effects.mailsWithPdf = mails.filter((m) =>
      m.attachments.some((a) => a.contentType === 'application/pdf'),
    ).length;
    effects.failedDeliveries = counts.failed;
    const serverCpu = Object.entries(processes)
      .filter(([name]) => name !== 'load generators')
      .reduce((sum, [, p]) => sum + p.cpuSeconds, 0);
    return {
      students: n,
      passes,
      arrivalSeconds,
      calls: summary,
      accepted: submitted.length,
      lastSubmitMs: Math.max(...submitted.map((s) => s.submittedAt)) - t0,
      loadEndMs,
      drainedMs,
      processes,
      serverCpuSeconds: serverCpu,
      journeyMs: (serverCpu * 1000) / n,
      design,
      routes,
      measured: { commits, ...broker },
      effects,
    };
  } finally {
    if (ownWorkers) for (const w of loaders) w.kill();
    await stopAll();
    await s3.close().catch(() => undefined);
    await mail.close().catch(() => undefined);
    await vhost.close().catch(() => undefined);
    await dropDatabase(database).catch((err) => out(`dropping ${database}: ${err}`));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const perJourney = (seconds, n) => `${((seconds * 1000) / n).toFixed(1)} ms`;

/** The bare journey's process table: CPU over the run and per journey. */
function bareProcessRows(f) {
  return Object.entries(f.processes).map(
    ([name, p]) => `| ${name} | ${p.cpuSeconds.toFixed(1)} s | ${perJourney(p.cpuSeconds, f.students)} |`,
  );
}

/** What a bare journey did, per journey: by design, and as PostgreSQL and RabbitMQ counted it. */
function bareCountRows(f) {
  const n = f.students;
  const per = (v) => (v === undefined ? '–' : (v / n).toFixed(2));
  const e = f.effects;
  return [
    `| HTTP calls through the proxy | ${(f.design.calls / n).toFixed(2)} | ${per(Object.values(f.calls).reduce((a, c) => a + c.calls, 0))} |`,
    `| commits (\`pg_stat_database.xact_commit\`) | ${(f.design.commits / n).toFixed(2)} | ${per(f.measured.commits)} |`,
    `| events published with a confirm | ${(f.design.published / n).toFixed(2)} | ${per(f.measured.published)} |`,
    `| deliveries consumed and acknowledged, one row each | ${(f.design.delivered / n).toFixed(2)} | ${per(f.measured.acknowledged)} |`,
    `| certificates stamped and mailed with the PDF | ${(f.passes / n).toFixed(2)} | ${per(e.mailsWithPdf)} |`,
    `| 2 KB objects stored | 1.00 | ${per(e.files)} |`,
  ];
}

function bareMarkdown(f, startedAt, load) {
  const c = f.calls;
  const errors = Object.values(c).reduce((a, x) => a + x.errors, 0);
  const callRows = Object.entries(c).map(
    ([name, x]) =>
      `| ${name} | ${x.calls} | ${x.errors} | ${Math.round(x.p50)} ms | ${Math.round(x.p99)} ms |`,
  );
  return `### The bare journey alone: ${f.students.toLocaleString('en')} students arriving over ${f.arrivalSeconds} s

Run ${startedAt.slice(0, 16).replace('T', ' ')} UTC on ${os.availableParallelism()} cores, Node ${process.version}, load average ${load.toFixed(2)} at the start, with
\`node bench/bare-journey.js\` (\`BENCH_STUDENTS=${f.students}\`), the peak's pauses and load processes, an assessment of
its own (12 questions; the peak passes the product's page instead). How it is built and what it leaves out: "The bare journey:
what the peak is divided by" in docs/benchmarks.md. ${errors} errors; every effect counted below; last submit at
${(f.lastSubmitMs / 1000).toFixed(1)} s, everything consumed and mailed at ${(f.drainedMs / 1000).toFixed(1)} s.

| Call | Calls | Errors | p50 | p99 |
| --- | --- | --- | --- | --- |
${callRows.join('\n')}

| Per journey | by design | counted |
| --- | --- | --- |
${bareCountRows(f).join('\n')}

| Process | CPU | per journey |
| --- | --- | --- |
${bareProcessRows(f).join('\n')}
| **every server process** (not the load generators) | ${f.serverCpuSeconds.toFixed(1)} s | **${f.journeyMs.toFixed(1)} ms** |`;
}

async function main() {
  const n = Number(process.env.BENCH_STUDENTS ?? 5000);
  const windowS = Number(process.env.BENCH_WINDOW_SECONDS ?? 60);
  const startedAt = new Date().toISOString();
  const load = os.loadavg()[0];
  out(`Bare journey: ${n} students, ${os.availableParallelism()} cores, load ${load.toFixed(2)}`);
  const { page, sheet } = ownAssessment();
  // On a RabbitMQ node of its own, configured as the peak's is (own-broker.js), unless BENCH_OWN_RABBITMQ=0.
  const broker = wantsOwnBroker() ? await useOwnBroker() : undefined;
  const f = await runBareJourney({
    students: n,
    arrivalSeconds: Math.max(1, windowS - 30),
    pauses: JOURNEY_PAUSES,
    workerCount: Number(process.env.BENCH_WORKERS ?? 2),
    page,
    sheet,
  });
  for (const [name, p] of Object.entries(f.processes))
    out(`  ${name.padEnd(16)} CPU ${p.cpuSeconds.toFixed(1)} s, ${perJourney(p.cpuSeconds, n)} a journey`);
  out(`  every server process: ${f.journeyMs.toFixed(1)} ms a journey`);
  out(`  counts: ${JSON.stringify({ design: f.design, measured: f.measured, effects: f.effects })}`);
  const file = path.join(ROOT, 'test-results', `bare-journey-${n}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(f, null, 2));
  // The default count has its section; a run with another BENCH_STUDENTS adds or replaces a section of its own.
  const section = n === 5000 ? 'bare-journey' : `bare-journey-${n}`;
  writeSection(path.join(ROOT, 'docs', 'benchmarks.md'), section, bareMarkdown(f, startedAt, load));
  broker?.stop();
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}

module.exports = { runBareJourney, bareProcessRows, bareCountRows, productRoutes, designCounts };
