'use strict';
/**
 * PostgreSQL statements each call of the student flow costs the student service (`db_queries_total` on its
 * /metrics), one call at a time on an otherwise idle local stack; what runs after a call (the outbox relay, the
 * result's consumer) is counted in the row of the call that caused it. Prints a table; `node bench/statements.js`.
 */
const path = require('node:path');
const { startLocalStack } = require(path.join(__dirname, '../deploy/all-in-one/dist/local-stack'));
const { createTestVhost } = require('@readiness/testing');

const ADMIN = { email: 'bench-admin@example.edu', password: 'enrolment-peak-admin-password' };
const out = (line = '') => process.stdout.write(`${line}\n`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const vhost = await createTestVhost();
  const stack = await startLocalStack({
    name: `bench_statements_${process.pid}`,
    isolate: true,
    ports: 'free',
    amqpUrl: vhost.url,
    redisUrl: 'redis://127.0.0.1:6379/12',
    output: 'buffer',
    env: { LOG_LEVEL: 'warn' },
    // The deadline job would add its own statements to the counts: once a minute here.
    serviceEnv: {
      auth: { SEED_ADMIN_EMAIL: ADMIN.email, SEED_ADMIN_PASSWORD: ADMIN.password },
      student: { DEADLINE_JOB_INTERVAL_MS: '60000' },
    },
  });
  const base = stack.gatewayUrl;
  const json = async (res) => {
    const body = await res.json();
    if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(body)}`);
    return body;
  };
  const metrics = async () => {
    const text = await (await fetch(`${stack.service('student').internalUrl}/metrics`)).text();
    return Number(
      text
        .split('\n')
        .find((l) => l.startsWith('db_queries_total{'))
        .split(' ')
        .pop(),
    );
  };
  try {
    const { token } = await json(
      await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(ADMIN),
      }),
    );
    const auth = { authorization: `Bearer ${token}` };
    const { assessment } = await json(await fetch(`${base}/api/assessment`, { headers: auth }));
    const answers = assessment.questions
      .filter((q) => q.correctAnswer)
      .map((q) => ({ questionId: q.id, answer: q.correctAnswer }));
    const fileQuestion = assessment.questions.find((q) => q.type === 'file_upload').id;
    await sleep(3000);
    const rows = [];
    for (let round = 0; round < 3; round++) {
      const { student } = await json(
        await fetch(`${base}/api/admin/students/invite`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `Counted ${round}`, email: `counted${round}@statements.example.edu` }),
        }),
      );
      const l = `${base}/api/student/${student.inviteToken}`;
      let attemptId;
      const steps = [
        ['open link', () => fetch(l)],
        ['load assessment', () => fetch(`${l}/assessment`)],
        [
          'start',
          async () => {
            const res = await fetch(`${l}/start`, { method: 'POST' });
            attemptId = (await res.clone().json()).attempt.id;
            return res;
          },
        ],
        [
          'autosave',
          () =>
            fetch(`${l}/answers`, {
              method: 'PUT',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ attemptId, seq: 1, answers }),
            }),
        ],
        [
          'upload file',
          () => {
            const form = new FormData();
            form.append('attemptId', attemptId);
            form.append('questionId', fileQuestion);
            form.append(
              'file',
              new Blob([Buffer.from('%PDF-1.4\n%%EOF\n')], { type: 'application/pdf' }),
              'form.pdf',
            );
            return fetch(`${l}/files`, { method: 'POST', body: form });
          },
        ],
        [
          'submit (and the result it waits for)',
          () =>
            fetch(`${l}/submit`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ attemptId, answers, timeSpent: 1, startedAt: new Date().toISOString() }),
            }),
        ],
      ];
      for (const [name, step] of steps) {
        const before = await metrics();
        const res = await step();
        if (!res.ok) throw new Error(`${name}: ${res.status} ${await res.text()}`);
        await sleep(1500);
        rows.push([round, name, (await metrics()) - before]);
      }
    }
    const byName = new Map();
    for (const [, name, n] of rows) byName.set(name, [...(byName.get(name) ?? []), n]);
    out('| Call | statements (three students) |\n| --- | --- |');
    for (const [name, ns] of byName) out(`| ${name} | ${ns.join(', ')} |`);
  } finally {
    await stack.stop();
    await vhost.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
