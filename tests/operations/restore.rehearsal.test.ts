/*
 * docs/operations.md, "Back up and restore", rehearsed: a local stack (a process per service, real PostgreSQL,
 * RabbitMQ and Redis, the stack's S3 server) takes two students through the product, one passing with an answer
 * file and one failing; `deploy/tools/backup.mjs backup` saves every database and the bucket; the stack is thrown
 * away; a fresh stack is restored with `backup.mjs restore` before its services start. The restored product
 * answers the same results, the same certificate verification and the same answer file, and the admin signs in
 * with the same password. A damaged backup, and a restore into databases that are not empty, change nothing.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { topology } from '@readiness/contracts';
import type { LocalStack } from '../../deploy/all-in-one/src/local-stack';
import { api } from '../../deploy/all-in-one/test/launcher';
import { answerSheet, prepareStudents, signIn, type Admin } from '../faults/support/students';
import { startTestStack, type TestStack } from '../support/test-stack';

const ROOT = path.resolve(__dirname, '../..');
const TOOL = path.join(ROOT, 'deploy/tools/backup.mjs');
/** A Redis database of its own (the fault suite uses 14, the traces test 13). */
const REDIS_DATABASE = 12;
const run = promisify(execFile);

jest.setTimeout(300_000);

/** Runs the backup tool as the docs do, against a stack's databases and bucket. */
function tool(command: 'backup' | 'restore', folder: string, databases: Record<string, string>, s3: object) {
  return run('node', [TOOL, command, folder], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...s3,
      DATABASE_URLS: Object.entries(databases)
        .map(([service, url]) => `${service}=${url}`)
        .join('\n'),
    },
  });
}

const DATA_SERVICES = topology.filter((s) => s.uses.postgres).map((s) => s.name);
const databasesOf = (stack: LocalStack) =>
  Object.fromEntries(DATA_SERVICES.map((s) => [s, stack.service(s).databaseUrl!]));

/** What an admin and the public see of the product's data, compared before and after the restore. */
async function observe(
  admin: Admin,
  seen: { code: string; studentId: string; attemptId: string; questionId: string },
) {
  const results = await api(admin.base, 'GET', '/api/admin/results?limit=100', { token: admin.token });
  const verification = await api(admin.base, 'GET', `/api/certificates/${seen.code}`);
  const file = await fetch(
    `${admin.base}/api/admin/students/${seen.studentId}/attempts/${seen.attemptId}/files/${seen.questionId}`,
    { headers: { authorization: `Bearer ${admin.token}` } },
  );
  return {
    results: { status: results.status, body: results.body },
    verification: { status: verification.status, body: verification.body },
    file: { status: file.status, bytes: Buffer.from(await file.arrayBuffer()).toString('base64') },
  };
}

let folder: string;
const stacks: TestStack[] = [];
let before: Awaited<ReturnType<typeof observe>>;
let after: Awaited<ReturnType<typeof observe>>;
let restored: LocalStack;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'readiness-backup-'));

  // The product in use: one pass with an answer file, one fail.
  const first = await startTestStack('restore_a', REDIS_DATABASE);
  stacks.push(first);
  const original = first.stack;
  const admin = await signIn(original.gatewayUrl);
  const sheet = await answerSheet(admin);
  const assessment = await api<{ assessment: { questions: Array<{ id: string; type: string }> } }>(
    admin.base,
    'GET',
    '/api/assessment',
    { token: admin.token },
  );
  const questionId = assessment.body.assessment.questions.find((q) => q.type === 'file_upload')!.id;
  const [passer, failer] = await prepareStudents(admin, 'restore', 2, sheet);
  const form = new FormData();
  form.append('attemptId', passer!.attemptId);
  form.append('questionId', questionId);
  form.append(
    'file',
    new Blob(['%PDF-1.4\n% the answer file of a restore rehearsal\n%%EOF\n']),
    'answer.pdf',
  );
  const upload = await fetch(`${admin.base}/api/student/${passer!.token}/files`, {
    method: 'POST',
    body: form,
  });
  expect(upload.status).toBe(201);
  for (const s of [passer!, failer!]) {
    const res = await api(admin.base, 'POST', `/api/student/${s.token}/submit`, {
      body: {
        attemptId: s.attemptId,
        answers: s.passes ? sheet.pass : sheet.fail,
        timeSpent: 1,
        startedAt: new Date().toISOString(),
      },
    });
    expect(res.status).toBe(200);
  }
  const mail = await original.mail.waitFor(
    (m) => m.to.includes(passer!.email) && m.attachments.length > 0,
    90_000,
  );
  const code = /verification code ([A-Z0-9-]+)/i.exec(mail.text)![1]!;
  const seen = { code, studentId: passer!.id, attemptId: passer!.attemptId, questionId };
  before = await observe(admin, seen);

  await tool('backup', folder, databasesOf(original), original.objectStorage.env);
  await first.stop();
  stacks.pop();

  // A fresh install: new databases and an empty bucket, restored before any service starts.
  const second = await startTestStack('restore_b', REDIS_DATABASE, {
    beforeStart: async ({ databases, objectStorage }) => {
      await tool('restore', folder, databases as Record<string, string>, objectStorage);
    },
  });
  stacks.push(second);
  restored = second.stack;
  after = await observe(await signIn(restored.gatewayUrl), seen);
}, 300_000);

afterAll(async () => {
  for (const stack of stacks) await stack.stop();
  if (folder) await rm(folder, { recursive: true, force: true });
});

it('keeps every result, the certificate verification and the answer file through a backup and a restore', () => {
  expect(before.results.status).toBe(200);
  expect((before.results.body as { results: unknown[] }).results).toHaveLength(2);
  expect(before.verification.status).toBe(200);
  expect(before.file.status).toBe(200);
  expect(after).toEqual(before);
});

it('refuses to restore into databases that are not empty, and changes nothing', async () => {
  const refused = tool('restore', folder, databasesOf(restored), restored.objectStorage.env);
  await expect(refused).rejects.toMatchObject({ stderr: expect.stringMatching(/is not empty/) });
  const admin = await signIn(restored.gatewayUrl);
  const results = await api(admin.base, 'GET', '/api/admin/results?limit=100', { token: admin.token });
  expect(results.body).toEqual(before.results.body);
});

it('refuses a damaged backup before it writes anything', async () => {
  const manifest = JSON.parse(await readFile(path.join(folder, 'manifest.json'), 'utf8')) as {
    objects: Array<{ key: string }>;
  };
  const object = path.join(folder, 'objects', ...manifest.objects[0]!.key.split('/'));
  await writeFile(object, 'not what was backed up');
  const refused = tool('restore', folder, databasesOf(restored), restored.objectStorage.env);
  await expect(refused).rejects.toMatchObject({
    stderr: expect.stringMatching(/does not match the manifest/),
  });
});
