'use strict';
/**
 * The bare journey's app (`bench/bare-journey.js`): one Express process that does the least a student's journey
 * needs and nothing else: no logging, tracing, token checks, rate limits, validation or outbox. Each of the eight
 * calls is one prepared statement (one transaction, one commit); start and submit then publish their event with a
 * publisher confirm. The same process consumes every event the product's consumers take on the way (one quorum
 * queue per product consumer, prefetch 10 as the product's): one prepared INSERT per delivery, then the ack. The
 * consumer of the submit scores and publishes the result, the consumer of a passing result publishes the
 * certificate's event, and the consumer of that event stamps the certificate into its template with the report
 * service's press (pdf-lib, no browser) and mails it to the catcher with nodemailer. The upload stores its 2 KB in
 * the object store with the product's client (minio).
 *
 * Environment: PORT, DATABASE_URL (tables made by the caller), AMQP_URL, ROUTES (JSON: event name → the product's
 * consumer queues of it), S3_ENDPOINT, S3_ACCESS_KEY, S3_SECRET_KEY, BUCKET, SMTP_URL, CERTIFICATE_SUBJECT.
 */
const crypto = require('node:crypto');
const http = require('node:http');
const path = require('node:path');
const amqp = require('amqplib');
const express = require('express');
const Minio = require('minio');
const multer = require('multer');
const nodemailer = require('nodemailer');
const { Pool } = require('pg');
const { PDFDocument, StandardFonts, rgb } = require('pdf-lib');

const ROOT = path.resolve(__dirname, '..');
const { createCertificatePress } = require(
  path.join(ROOT, 'services/report/dist/rendering/certificate-press'),
);

const EXCHANGE = 'bare.events';
const STARTED = 'student.attempt.started.v1';
const SUBMITTED = 'student.attempt.submitted.v1';
const RECORDED = 'results.result.recorded.v1';
const ISSUED = 'report.certificate.issued.v2';
const PASS_MARK = 70;
const ROUTES = JSON.parse(process.env.ROUTES);
const BUCKET = process.env.BUCKET;

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
/** A named statement: parsed once per connection, then only bound and run. */
const run = (name, text, values) => pool.query({ name, text, values });

// ---------------------------------------------------------------------------------------------------------------
// Object storage, mail and the certificate press.

const s3 = new URL(process.env.S3_ENDPOINT);
const objects = new Minio.Client({
  endPoint: s3.hostname,
  port: Number(s3.port),
  useSSL: false,
  accessKey: process.env.S3_ACCESS_KEY,
  secretKey: process.env.S3_SECRET_KEY,
  region: 'us-east-1',
  pathStyle: true,
  // As the kit's store: a free connection is dropped after 15 s, long before the server closes it (65 s).
  transportAgent: new http.Agent({ keepAlive: true, maxSockets: 50, timeout: 15_000 }),
});
const STALE = new Set(['ECONNRESET', 'EPIPE']);
const mailer = nodemailer.createTransport({
  url: process.env.SMTP_URL,
  pool: true,
  maxConnections: 3,
  maxMessages: 100,
});

const DESIGN = {
  language: 'en',
  assessmentTitle: 'Enrolment readiness',
  providerName: 'Bench Institute',
  signatory: 'The Registrar',
  verificationBase: 'https://readiness.example.edu/verify/',
};
/** Where the student's own texts go, in CSS pixels from the top left of an A4 landscape page (1123 × 794). */
const SLOTS = {
  name: { x: 161, y: 300, width: 800, height: 60, baseline: 345 },
  score: { x: 161, y: 390, width: 800, height: 24, baseline: 408 },
  awarded: { x: 161, y: 430, width: 800, height: 24, baseline: 448 },
  qr: { x: 900, y: 580, width: 120, height: 120 },
  code: { x: 100, y: 640, width: 200, height: 16, baseline: 652 },
  'url-code': { x: 100, y: 670, width: 300, height: 14, baseline: 680 },
};

/** The design's template, made once with pdf-lib where the product has the browser lay it out once. */
async function templatePdf() {
  const doc = await PDFDocument.create();
  const page = doc.addPage([841.89, 595.28]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const ink = rgb(0.1, 0.12, 0.16);
  page.drawText('Certificate of completion', { x: 120, y: 500, size: 30, font, color: ink });
  page.drawText(DESIGN.assessmentTitle, { x: 120, y: 460, size: 18, font, color: ink });
  page.drawText(DESIGN.providerName, { x: 120, y: 120, size: 12, font, color: ink });
  page.drawText(DESIGN.signatory, { x: 420, y: 120, size: 12, font, color: ink });
  return Buffer.from(await doc.save());
}

const quiet = { info() {}, debug() {}, warn() {}, error() {} };
const press = createCertificatePress({
  renderer: {
    renderMeasured: async () => ({ pdf: await templatePdf(), slots: SLOTS }),
    render: () => Promise.reject(new Error('the bare journey prints every certificate on its template')),
  },
  fontFaces: '',
  arabicFontFaces: '',
  logger: quiet,
});

// ---------------------------------------------------------------------------------------------------------------
// The bus: a confirm channel to publish on, a channel per consumer queue.

let publisher;
const publish = (name, payload) =>
  new Promise((resolve, reject) => {
    const id = crypto.randomUUID();
    if (process.env.BARE_DEBUG) process.stderr.write(`publish ${name}\n`);
    const body = Buffer.from(JSON.stringify({ id, name, occurredAt: new Date().toISOString(), payload }));
    publisher.publish(
      EXCHANGE,
      name,
      body,
      { persistent: true, messageId: id, contentType: 'application/json' },
      (err) => {
        if (process.env.BARE_DEBUG) process.stderr.write(`confirm ${name} ${err ?? 'ok'}\n`);
        return err ? reject(err) : resolve();
      },
    );
  });

const counts = { consumed: 0, mailed: 0, failed: 0, inFlight: {} };
let key;

/** What a consumer does before its row: the result, the certificate's code, the mail; and what it publishes after. */
async function effect(queue, { payload }) {
  if (queue === 'results.attempt-submitted') {
    const right = payload.answers.filter((a) => key.get(a.questionId) === a.answer).length;
    const percentage = Math.round((right * 100) / key.size);
    const result = { ...payload, answers: undefined, percentage, passed: percentage >= PASS_MARK };
    return { row: { percentage, passed: result.passed }, after: () => publish(RECORDED, result) };
  }
  if (queue === 'report.result-recorded' && payload.passed) {
    const code =
      `RDY-${crypto.randomBytes(2).toString('hex')}-${crypto.randomBytes(2).toString('hex')}`.toUpperCase();
    return { row: { code }, after: () => publish(ISSUED, { ...payload, code }) };
  }
  if (queue === 'notification.certificate-issued') {
    const pdf = await press.print(DESIGN, {
      name: payload.name,
      percentage: payload.percentage,
      awardedAt: new Date(),
      code: payload.code,
    });
    await mailer.sendMail({
      from: 'Readiness <no-reply@readiness.example.edu>',
      to: payload.email,
      subject: `${process.env.CERTIFICATE_SUBJECT}, ${payload.name}`,
      text: `Dear ${payload.name},\n\nyou passed ${DESIGN.assessmentTitle}. Your certificate is attached.\n`,
      attachments: [{ filename: 'certificate.pdf', content: pdf, contentType: 'application/pdf' }],
    });
    counts.mailed += 1;
    return { row: { mailed: true } };
  }
  return { row: {} };
}

async function consume(channel, queue, msg) {
  counts.inFlight[queue] = (counts.inFlight[queue] ?? 0) + 1;
  try {
    const event = JSON.parse(msg.content.toString('utf8'));
    const { row, after } = await effect(queue, event);
    const written = await run(
      'consumed',
      'INSERT INTO consumed (queue, event_id, body) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
      [queue, event.id, row],
    );
    if (written.rowCount === 1 && after) await after();
    counts.consumed += 1;
    channel.ack(msg);
  } catch (err) {
    counts.failed += 1;
    process.stderr.write(`${queue}: ${err.stack ?? err}\n`);
    setTimeout(() => channel.nack(msg, false, true), 1000);
  } finally {
    counts.inFlight[queue] -= 1;
  }
}

async function startBus() {
  const connection = await amqp.connect(process.env.AMQP_URL);
  publisher = await connection.createConfirmChannel();
  await publisher.assertExchange(EXCHANGE, 'topic', { durable: true });
  const queues = new Map();
  for (const [event, consumers] of Object.entries(ROUTES))
    for (const queue of consumers) queues.set(queue, [...(queues.get(queue) ?? []), event]);
  for (const [queue, events] of queues) {
    const channel = await connection.createChannel();
    const name = `bare.${queue}`;
    await channel.assertQueue(name, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
    for (const event of events) await channel.bindQueue(name, EXCHANGE, event);
    await channel.prefetch(10);
    await channel.consume(name, (msg) => msg && void consume(channel, queue, msg), { noAck: false });
  }
  return connection;
}

// ---------------------------------------------------------------------------------------------------------------
// The eight calls.

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
const json = express.json({ limit: '1mb' });
const upload = multer({ storage: multer.memoryStorage(), limits: { fileSize: 10 * 2 ** 20 } }).single('file');
const answer = (handler) => (req, res) =>
  handler(req, res).catch((err) => {
    res.status(500).json({ error: String(err) });
  });

app.get('/internal/counts', (_req, res) => res.json(counts));

app.get(
  '/api/student/:token',
  answer(async (req, res) => {
    const { rows } = await run(
      'open',
      "SELECT json_build_object('name', name, 'status', status)::text AS page FROM students WHERE token = $1",
      [req.params.token],
    );
    if (!rows[0]) return res.status(404).end();
    res.type('application/json').send(rows[0].page);
  }),
);

app.get(
  '/api/student/:token/assessment',
  answer(async (req, res) => {
    const { rows } = await run(
      'load',
      'SELECT a.page FROM students s JOIN assessments a ON a.id = s.assessment_id WHERE s.token = $1',
      [req.params.token],
    );
    if (!rows[0]) return res.status(404).end();
    res.type('application/json').send(rows[0].page);
  }),
);

app.post(
  '/api/student/:token/start',
  answer(async (req, res) => {
    const { rows } = await run(
      'start',
      `INSERT INTO attempts (id, student_id, status) SELECT $2, s.id, 'started' FROM students s WHERE s.token = $1
       ON CONFLICT (student_id) DO NOTHING RETURNING id, student_id, started_at`,
      [req.params.token, crypto.randomUUID()],
    );
    if (!rows[0]) return res.status(409).end();
    await publish(STARTED, {
      attemptId: rows[0].id,
      studentId: rows[0].student_id,
      startedAt: rows[0].started_at,
    });
    res.status(201).json({ attempt: { id: rows[0].id, startedAt: rows[0].started_at } });
  }),
);

app.put(
  '/api/student/:token/answers',
  json,
  answer(async (req, res) => {
    const { attemptId, seq, answers } = req.body;
    const { rows } = await run(
      'save',
      `UPDATE attempts a SET answers = $3, seq = $4, saved_at = now() FROM students s
        WHERE s.token = $1 AND a.id = $2 AND a.student_id = s.id AND a.status = 'started' AND a.seq < $4
        RETURNING a.seq, a.saved_at`,
      [req.params.token, attemptId, JSON.stringify(answers), seq],
    );
    if (!rows[0]) return res.status(409).end();
    res.json({ seq: rows[0].seq, savedAt: rows[0].saved_at });
  }),
);

app.post(
  '/api/student/:token/files',
  upload,
  answer(async (req, res) => {
    const { attemptId, questionId } = req.body;
    const objectKey = `answers/${attemptId}/${questionId}`;
    const put = () =>
      objects.putObject(BUCKET, objectKey, req.file.buffer, req.file.size, {
        'Content-Type': req.file.mimetype,
      });
    // As the kit's object store does: a kept-alive connection the server had just closed is tried once more.
    await put().catch((err) => {
      if (!STALE.has(err.code)) throw err;
      return put();
    });
    const { rows } = await run(
      'file',
      `UPDATE attempts a SET files = a.files || jsonb_build_object($3::text, $4::text) FROM students s
        WHERE s.token = $1 AND a.id = $2 AND a.student_id = s.id AND a.status = 'started' RETURNING a.id`,
      [req.params.token, attemptId, questionId, objectKey],
    );
    if (!rows[0]) return res.status(409).end();
    res.status(201).json({ questionId, size: req.file.size });
  }),
);

app.post(
  '/api/student/:token/submit',
  json,
  answer(async (req, res) => {
    const { attemptId, answers } = req.body;
    const { rows } = await run(
      'submit',
      `UPDATE attempts a SET status = 'submitted', answers = $3, submitted_at = now() FROM students s
        WHERE s.token = $1 AND a.id = $2 AND a.student_id = s.id AND a.status = 'started'
        RETURNING s.id AS student_id, s.name, s.email`,
      [req.params.token, attemptId, JSON.stringify(answers)],
    );
    if (!rows[0]) return res.status(409).end();
    const { student_id: studentId, name, email } = rows[0];
    await publish(SUBMITTED, { attemptId, studentId, name, email, answers });
    res.json({ status: 'submitted' });
  }),
);

async function main() {
  const { rows } = await pool.query('SELECT key FROM assessments WHERE id = 1');
  key = new Map(rows[0].key.map((a) => [a.questionId, a.answer]));
  if (!(await objects.bucketExists(BUCKET))) await objects.makeBucket(BUCKET, 'us-east-1');
  // The template is made before the first student, as the product's is by its first certificate.
  await press.print(DESIGN, {
    name: 'Warm Up',
    percentage: 100,
    awardedAt: new Date(),
    code: 'RDY-AAAA-0000',
  });
  const connection = await startBus();
  const server = app.listen(Number(process.env.PORT), '127.0.0.1');
  server.keepAliveTimeout = 65_000;
  process.on('SIGTERM', () =>
    server.close(() => {
      mailer.close();
      Promise.allSettled([connection.close(), pool.end()]).then(() => process.exit(0));
    }),
  );
}

main().catch((err) => {
  process.stderr.write(`${err.stack ?? err}\n`);
  process.exit(1);
});
