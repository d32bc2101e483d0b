'use strict';
/**
 * One load-generating process of the enrolment peak (`bench/peak.js` forks several): it takes its share of the
 * students through the student flow behind the gateway, as their browsers would, and reports every call's latency
 * and status to the parent. Orders arrive over IPC:
 * - `journey`: each student arrives at its own moment, opens the link, loads the assessment, starts, autosaves three
 *   times at realistic pauses, uploads one small file and submits (waiting for the result, as the page does);
 * - `prepare`: start and save every answer, as fast as the server allows (not measured: the set-up of the submit run);
 * - `submit`: every prepared student submits, `concurrency` at a time, answered at commit (`Prefer: respond-async`).
 */
const http = require('node:http');
const { randomUUID } = require('node:crypto');

let agent;
let base;

/** One HTTP call; resolves with status, parsed body (JSON or undefined) and the latency in ms. Never rejects. */
function call(method, path, { json, body, headers = {} } = {}) {
  const payload = json !== undefined ? Buffer.from(JSON.stringify(json)) : body;
  const h = { ...headers };
  if (json !== undefined) h['content-type'] = 'application/json';
  if (payload) h['content-length'] = String(payload.length);
  const started = process.hrtime.bigint();
  return new Promise((resolve) => {
    const req = http.request(`${base}${path}`, { method, agent, headers: h }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        let parsed;
        try {
          parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode, body: parsed, ms });
      });
      res.on('error', (err) => resolve({ status: 0, error: err.message, ms: 0 }));
    });
    req.on('error', (err) => resolve({ status: 0, error: err.message, ms: 0 }));
    if (payload) req.end(payload);
    else req.end();
  });
}

/** Latencies and failures by call name. */
const calls = {};
function record(name, res) {
  const c = (calls[name] ??= { ms: [], at: [], ok: 0, statuses: {}, failures: [] });
  c.statuses[res.status] = (c.statuses[res.status] ?? 0) + 1;
  if (res.status >= 200 && res.status < 300) {
    c.ok++;
    c.ms.push(res.ms);
    c.at.push(Date.now());
  } else if (c.failures.length < 5) {
    c.failures.push(`${res.status} ${res.error ?? JSON.stringify(res.body)?.slice(0, 200)}`);
  }
  return res;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const between = (lo, hi) => lo + Math.random() * (hi - lo);

/** A small PDF, as a student's scanned form would start: the signature the upload check looks for. */
const SMALL_PDF = Buffer.concat([
  Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj << /Type /Catalog >> endobj\n', 'latin1'),
  Buffer.alloc(2048, 0x20),
  Buffer.from('\n%%EOF\n'),
]);

function multipart(fields, file) {
  const boundary = `----bench${randomUUID()}`;
  const parts = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
    ),
    file.data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

const link = (token) => `/api/student/${token}`;

/** Answers given so far: a third, two thirds, then all of them. */
const share = (answers, step) => answers.slice(0, Math.ceil((answers.length * step) / 3));

async function journey(student, sheet, pauses) {
  const answers = student.passes ? sheet.pass : sheet.fail;
  const l = link(student.token);
  if (record('open link', await call('GET', l)).status !== 200) return;
  if (record('load assessment', await call('GET', `${l}/assessment`)).status !== 200) return;
  const started = await startInTurn(student, l);
  const attemptId = started.body?.attempt?.id;
  if (!attemptId) return;
  for (let seq = 1; seq <= 3; seq++) {
    await sleep(between(...pauses.autosave));
    record(
      'autosave',
      await call('PUT', `${l}/answers`, { json: { attemptId, seq, answers: share(answers, seq) } }),
    );
  }
  await sleep(between(...pauses.upload));
  const form = multipart(
    { attemptId, questionId: sheet.fileQuestionId },
    { name: 'enrolment-form.pdf', type: 'application/pdf', data: SMALL_PDF },
  );
  record(
    'upload file',
    await call('POST', `${l}/files`, { body: form.body, headers: { 'content-type': form.contentType } }),
  );
  await sleep(between(...pauses.submit));
  const submitted = record(
    'submit',
    await call('POST', `${l}/submit`, {
      json: { attemptId, answers, timeSpent: 1, startedAt: new Date().toISOString() },
      headers: { 'idempotency-key': `submit-${attemptId}` },
    }),
  );
  student.submitStatus = submitted.status;
  student.submittedAt = Date.now();
}

/**
 * Follows the line's event stream (`GET /api/waiting-room/events`, as the page's EventSource does) until `ticket` is
 * served: true then, false when the stream is refused or ends first (the page polls then). Opening it is recorded as
 * `line stream` (the time to its first figures), each figure told as `line told`.
 */
function followLine(ticket) {
  const started = process.hrtime.bigint();
  return new Promise((resolve) => {
    let first = true;
    let text = '';
    const req = http.get(`${base}/api/waiting-room/events`, { agent }, (res) => {
      if (res.statusCode !== 200) {
        record('line stream', { status: res.statusCode, ms: 0 });
        res.resume();
        return resolve(false);
      }
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        text += chunk;
        let end;
        while ((end = text.indexOf('\n\n')) !== -1) {
          const data = /^data: (.*)$/m.exec(text.slice(0, end));
          text = text.slice(end + 2);
          if (!data) continue;
          if (first) {
            first = false;
            record('line stream', { status: 200, ms: Number(process.hrtime.bigint() - started) / 1e6 });
          }
          record('line told', { status: 200, ms: 0 });
          if (JSON.parse(data[1]).serving >= ticket) {
            req.destroy();
            return resolve(true);
          }
        }
      });
      res.on('end', () => resolve(false));
      res.on('error', () => resolve(false));
    });
    req.on('error', () => resolve(false));
  });
}

/**
 * Start, as the page does: a 202 puts the student in the waiting room (their place shown, recorded as `place in
 * line`); the page follows the line's event stream and starts when its ticket is served, or polls
 * `GET /api/waiting-room` at the answer's `checkAfterSeconds` while it has no stream. The time in line is kept on the
 * student (`waitedMs`): their clock had not started.
 */
async function startInTurn(student, l) {
  let started = await call('POST', `${l}/start`);
  if (started.status !== 202) return record('start', started);
  record('place in line', started);
  const since = Date.now();
  const { ticket } = started.body.waiting;
  let askedAt = Date.now();
  while (started.status === 202) {
    const served = await followLine(ticket);
    // The service answers a link that waits from memory for a second (the same 202). The page asks again at its
    // stream's next figures; a new stream here tells its figures at once, so ask no sooner than 1.5 s after the
    // last Start, never in a loop.
    await sleep(Math.max(0, askedAt + 1_500 - Date.now()));
    if (!served) {
      await sleep(started.body.waiting.checkAfterSeconds * 1000 * between(0.7, 1));
      const line = record('waiting room', await call('GET', '/api/waiting-room'));
      if (line.status === 200 && line.body.serving < ticket) continue;
    }
    started = await call('POST', `${l}/start`);
    askedAt = Date.now();
    record(started.status === 202 ? 'place in line' : 'start', started);
  }
  student.waitedMs = Date.now() - since;
  return started;
}

async function prepare(student, sheet) {
  const l = link(student.token);
  const started = await startInTurn(student, l);
  student.attemptId = started.body?.attempt?.id;
  if (!student.attemptId) throw new Error(`start answered ${started.status}`);
  const saved = await call('PUT', `${l}/answers`, {
    json: { attemptId: student.attemptId, seq: 1, answers: student.passes ? sheet.pass : sheet.fail },
  });
  if (saved.status !== 200) throw new Error(`autosave answered ${saved.status}`);
}

async function submitAccepted(student, sheet) {
  const res = record(
    'submit, answered at commit',
    await call('POST', `${link(student.token)}/submit`, {
      json: {
        attemptId: student.attemptId,
        answers: student.passes ? sheet.pass : sheet.fail,
        timeSpent: 1,
        startedAt: new Date().toISOString(),
      },
      headers: { 'idempotency-key': `submit-${student.attemptId}`, prefer: 'respond-async' },
    }),
  );
  student.submitStatus = res.status;
}

async function inPool(items, concurrency, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

process.on('message', async (order) => {
  base = order.gateway;
  // Every student's browser holds connections of its own: a load process holds up to BENCH_SOCKETS (4,096) at once,
  // so a call does not queue here behind another student's slow one (which would count in every latency and none of
  // the CPU).
  // Idle connections are closed here after 30 s, before the gateway's 65 s: a browser retries a request the server
  // reset on a connection it had just closed; this agent does not, so it must not send one on such a connection.
  agent ??= new http.Agent({
    keepAlive: true,
    timeout: 30_000,
    maxSockets: order.sockets ?? Number(process.env.BENCH_SOCKETS ?? 4096),
  });
  const students = order.students;
  try {
    if (order.kind === 'journey') {
      await Promise.all(
        students.map(async (s) => {
          await sleep(Math.max(0, order.t0 + s.arrivalMs - Date.now()));
          await journey(s, order.sheet, order.pauses);
        }),
      );
    } else if (order.kind === 'prepare') {
      await inPool(students, order.concurrency, (s) => prepare(s, order.sheet));
    } else if (order.kind === 'submit') {
      const started = Date.now();
      await inPool(students, order.concurrency, (s) => submitAccepted(s, order.sheet));
      order.elapsedMs = Date.now() - started;
    }
    process.send({ ok: true, calls, students, elapsedMs: order.elapsedMs });
  } catch (err) {
    process.send({ ok: false, error: err.stack ?? String(err) });
  }
  for (const k of Object.keys(calls)) delete calls[k];
});
