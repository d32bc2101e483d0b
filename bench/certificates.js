'use strict';
/**
 * `make bench`, certificates: passed results → certificate PDF rendered, stored and announced → mail with the PDF
 * caught, through the report and notification services (from their `dist`, in this process, the in-process
 * bus, throwaway PostgreSQL databases, the embedded S3 and an SMTP catcher), as a ratio to a bare puppeteer-core
 * loop rendering the same certificate page with the same browser and pool size in the same run. Also the CPU
 * each certificate costs over every process (this one, its browser, PostgreSQL) and the resident memory of this
 * process plus its browser, idle and at the peak of the run.
 *
 * Results replace this benchmark's section of docs/benchmarks.md and are printed.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Client } = require('pg');
const { cpuSeconds, descendants, metricSum, serverPids, writeSection } = require('./lib');
const { bareLoop, certificateContent: content, treePssMb } = require('./pdf');

const ROOT = path.resolve(__dirname, '..');
const RESULTS_FILE = path.join(ROOT, 'docs', 'benchmarks.md');
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const COUNT = Number(process.env.BENCH_CERTIFICATES ?? 300);
/** The bare loop's rate settles within a few dozen PDFs. */
const BARE_COUNT = Math.min(COUNT, 60);
const POOL = Number(process.env.BENCH_PDF_POOL ?? 4);
const CORES = os.availableParallelism();
const out = (line = '') => process.stdout.write(`${line}\n`);

const dist = (file) => path.join(ROOT, 'services', file);
for (const file of ['report/dist/index.js', 'notification/dist/index.js']) {
  if (!fs.existsSync(dist(file))) throw new Error(`services/${file} is missing: run \`make build\` first`);
}
const { reportService } = require(dist('report/dist'));
const { notificationService } = require(dist('notification/dist'));
const { loadFontFaces } = require(dist('report/dist/domain/templates/fonts'));
const { chooseBrowser } = require(dist('report/dist/rendering/browser-choice'));
const contracts = require(path.join(ROOT, 'proto/dist'));
const { spawnEmbeddedS3, startMailCatcher } = require(path.join(ROOT, 'packages/dev-servers/dist'));
const { createMemoryBus } = require(path.join(ROOT, 'packages/kit/dist/bus'));
const { createLogger } = require(path.join(ROOT, 'packages/kit/dist/logger'));
const { startService } = require(path.join(ROOT, 'packages/kit/dist/runtime'));

async function main() {
  const runId = crypto.randomBytes(4).toString('hex');
  const databases = [`bench_report_${runId}`, `bench_notification_${runId}`];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'readiness-bench-certificates-'));
  const admin = new Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  const stops = [];
  const logger = createLogger({ name: 'bench', level: 'error' });
  try {
    const load = os.loadavg()[0];
    out(
      `Certificates benchmark: ${CORES} cores, Node ${process.version}, load ${load.toFixed(2)}, ${COUNT} certificates, ${POOL} pages`,
    );
    for (const db of databases) await admin.query(`CREATE DATABASE ${db}`);
    const url = (db) => {
      const u = new URL(PG_ADMIN_URL);
      u.pathname = `/${db}`;
      return u.toString();
    };
    const fontFaces = loadFontFaces();
    const choice = await chooseBrowser({ bundled: true, bundledDir: path.join(dataDir, 'chromium'), logger });
    out(`browser: ${choice.source} ${choice.executablePath} (${choice.version})`);

    out(`\n[1/3] bare puppeteer-core loop`);
    // Its browser is this process's child: its CPU is added to this process's when it is closed and reaped.
    const bareCpuBefore = cpuSeconds(process.pid, true);
    const bare = await bareLoop({
      executablePath: choice.executablePath,
      args: choice.args,
      fontFaces,
      count: BARE_COUNT,
      pool: POOL,
    });
    const bareCpuMs = ((cpuSeconds(process.pid, true) - bareCpuBefore) * 1000) / BARE_COUNT;
    out(
      `      ${bare.toFixed(1)} PDF/s, ${bareCpuMs.toFixed(1)} ms of CPU per PDF (this process and the browser)`,
    );

    const bus = createMemoryBus({ logger, service: 'bench' });
    await bus.start();
    stops.push(() => bus.close());
    const mail = await startMailCatcher({ logger, capacity: COUNT * 2 });
    stops.push(() => mail.close());
    // Its own process, as object storage is in production: its CPU is counted apart.
    const s3 = await spawnEmbeddedS3({ directory: path.join(dataDir, 's3') });
    stops.push(() => s3.close());
    const common = {
      PORT: 0,
      HOST: '127.0.0.1',
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
    };
    const shared = { bus, smtpUrl: mail.url, s3 };
    const notification = await startService(notificationService, {
      config: { ...common, DATABASE_URL: url(databases[1]) },
      shared,
      logger,
    });
    stops.push(() => notification.stop());
    const report = await startService(reportService, {
      config: {
        ...common,
        DATABASE_URL: url(databases[0]),
        PDF_POOL_SIZE: String(POOL),
        ...(choice.source === 'system' ? {} : { PUPPETEER_EXECUTABLE_PATH: choice.executablePath }),
      },
      shared,
      logger,
    });
    stops.push(() => report.stop());
    const renderer = report.exports.renderer;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const idle = process.pid && treePssMb(process.pid);

    out(`[2/3] event → PDF stored → issued → mail caught, through the services`);
    let peak = idle;
    // The processes are listed once: a walk through /proc each second would be counted as this process's CPU.
    const tree = [process.pid, ...descendants(process.pid)];
    const sampler = setInterval(() => {
      peak = Math.max(peak, treePssMb(process.pid, tree));
    }, 1000);
    // CPU from here to the last mail: this process (both services, S3, the catcher), its browser, PostgreSQL.
    const cpuGroups = {
      'this process': () => [process.pid],
      browser: () => descendants(process.pid).filter((pid) => pid !== s3.child.pid),
      PostgreSQL: () => serverPids().PostgreSQL,
      'object storage': () => [s3.child.pid],
    };
    const cpuBase = new Map();
    const cpuOf = (name) =>
      cpuGroups[name]().reduce(
        (sum, pid) => sum + (cpuSeconds(pid, name === 'browser') ?? 0) - (cpuBase.get(pid) ?? 0),
        0,
      );
    for (const [name, pids] of Object.entries(cpuGroups))
      for (const pid of pids()) cpuBase.set(pid, cpuSeconds(pid, name === 'browser') ?? 0);
    const statements = () =>
      Promise.all([report, notification].map((svc) => metricSum(svc.internalUrl, 'db_queries_total')));
    const statementsBefore = await statements();
    const printedBefore = report.exports.certificates.counts();
    const started = process.hrtime.bigint();
    await bus.publish(
      Array.from({ length: COUNT }, (_, i) => ({
        id: crypto.randomUUID(),
        name: 'results.result.recorded.v1',
        occurredAt: new Date(),
        source: 'bench',
        payload: contracts.encodePayload(
          'results.result.recorded.v1',
          contracts.create(contracts.ResultRecordedSchema, {
            resultId: crypto.randomUUID(),
            attemptId: crypto.randomUUID(),
            studentId: crypto.randomUUID(),
            name: content(i).name,
            email: `student${i}@example.edu`,
            score: 15,
            totalPoints: 20,
            percentage: content(i).percentage,
            passed: true,
            attemptNumber: 1,
            assessmentCode: content(i).code,
            completedAt: contracts.timestampFromDate(new Date()),
            versionId: 'v1',
            version: 1,
            passingScore: 70,
            assessmentTitle: 'Distance Learning Readiness',
          }),
        ),
      })),
    );
    while (mail.list().length < COUNT) await new Promise((resolve) => setTimeout(resolve, 50));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const cpuMs = Object.fromEntries(
      Object.keys(cpuGroups).map((name) => [name, (cpuOf(name) * 1000) / COUNT]),
    );
    const cpuTotal = Object.values(cpuMs).reduce((a, b) => a + b, 0);
    const printedAfter = report.exports.certificates.counts();
    const perCertificate = (await statements()).map((n, i) => (n - statementsBefore[i]) / COUNT);
    const printed = printedAfter.printed - printedBefore.printed;
    clearInterval(sampler);
    const whole = COUNT / seconds;
    out(
      `      ${whole.toFixed(1)} certificates/s, ratio ${(whole / bare).toFixed(2)}; memory idle ${idle.toFixed(0)} MB, peak ${peak.toFixed(0)} MB`,
    );
    out(`      browser ${renderer.status().source}, ${renderer.blockedRequests()} requests blocked`);
    out(
      `      CPU per certificate ${cpuTotal.toFixed(1)} ms: ${Object.entries(cpuMs)
        .map(([n, ms]) => `${n} ${ms.toFixed(1)}`)
        .join(', ')}; ${printed} of ${COUNT} printed on a template`,
    );
    out(
      `      statements per certificate: report ${perCertificate[0].toFixed(1)}, notification ${perCertificate[1].toFixed(1)}`,
    );

    out(`[3/3] the certificate PDF alone: the press, its template ready`);
    const press = report.exports.certificates;
    const design = {
      assessmentTitle: 'Distance Learning Readiness',
      providerName: 'Readiness Distance Education',
      signatory: 'Director of Distance Education',
      verificationBase: 'http://localhost:8080/verify/',
    };
    await press.print(design, content(0));
    const pressCpu = process.cpuUsage();
    const pressStarted = process.hrtime.bigint();
    for (let i = 0; i < COUNT; i += 1) await press.print(design, content(i));
    const pressSeconds = Number(process.hrtime.bigint() - pressStarted) / 1e9;
    const used = process.cpuUsage(pressCpu);
    const pressCpuMs = (used.user + used.system) / 1000 / COUNT;
    const pressRate = COUNT / pressSeconds;
    out(`      ${pressRate.toFixed(0)} PDF/s on one thread, ${pressCpuMs.toFixed(2)} ms of CPU per PDF`);

    writeSection(
      RESULTS_FILE,
      'certificates',
      `## Certificates: pass event → PDF stored → mail with the PDF caught

Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${CORES} cores, Node ${process.version}, load average
${load.toFixed(2)} at the start; ${choice.source} Chromium (${choice.version}), ${POOL} pages. The report and
notification services run from \`dist\` in the benchmark's process on the in-process bus, PostgreSQL on this
machine, the embedded S3 in a process of its own and an SMTP catcher; ${COUNT} passed results are published at once
and the clock stops when the last certificate mail is caught.

| Measurement | Throughput | Ratio to the bare loop |
| --- | --- | --- |
| bare puppeteer-core loop: the same certificate page, same browser and pool (baseline) | ${bare.toFixed(1)} PDF/s | 1.00 |
| the certificate PDF alone: the press writing into its template (one thread) | ${pressRate.toFixed(0)} PDF/s | ${(pressRate / bare).toFixed(1)} |
| whole path: event → template + the student's text (pdf-lib) → store in S3 → \`report.certificate.issued.v2\` (its key and digest) in the outbox → relay → PDF read from S3 → mail | ${whole.toFixed(1)} certificates/s | ${(whole / bare).toFixed(2)} (goal ≥ 10) |

${printed} of the ${COUNT} certificates were printed on their design's template, which the browser rendered once.
Statements to PostgreSQL per certificate (\`db_queries_total\`, BEGIN and COMMIT included): report
${perCertificate[0].toFixed(1)}, notification ${perCertificate[1].toFixed(1)}. Both together sent about 18 on 2026-11-27 (counted at
the driver, 100 certificates); since 2026-11-28 the
result's copy and its pending certificate now go in with the inbox row in one statement, pending certificates are
claimed with their details as many at a time as the renderer has pages, a certificate is marked issued and its event
written in one statement, and a mail's claim is created and taken in one.

| CPU per certificate PDF | ms |
| --- | --- |
| bare puppeteer-core loop (this process and the browser) | ${bareCpuMs.toFixed(1)} |
| the press (template ready) | ${pressCpuMs.toFixed(2)} |

| CPU per certificate, event to mail | ms |
| --- | --- |
${Object.entries(cpuMs)
  .map(([name, ms]) => `| ${name} | ${ms.toFixed(2)} |`)
  .join('\n')}
| **all processes** (goal ≤ 5) | **${cpuTotal.toFixed(2)}** |

| Memory (this process, its browser and renderers: proportional set size) | MB |
| --- | --- |
| idle, after start and the test PDF | ${idle.toFixed(0)} |
| peak during the run | ${peak.toFixed(0)} |

"This process" holds the report and notification services, the bus and the mail catcher (which parses every
mail), so the two services alone use less; the browser's share is bounded by the pool (one renderer per page),
and it closes when idle.`,
    );
    out(`\nwritten to ${path.relative(ROOT, RESULTS_FILE)}`);
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    for (const db of databases)
      await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
