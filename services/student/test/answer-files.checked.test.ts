import { readdirSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { eventually } from '@readiness/testing';
import { inviteStudent, studentCall, useStudent, type JsonBody } from './harness';

jest.setTimeout(60_000);

const MAX_BYTES = 64 * 1024;
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const PDF = Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n', 'latin1');
const EXE = Buffer.from('4d5a90000300000004000000ffff0000b800000000000000', 'hex');

const h = useStudent('real', { config: { STUDENT_UPLOAD_MAX_BYTES: MAX_BYTES, SUBMIT_RESULT_WAIT_MS: 200 } });

/** Objects in the S3 server's folder (s3rver keeps one folder per object), under answers/. */
function objectsOnDisk(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    let entries: string[] = [];
    try {
      entries = readdirSync(dir);
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.endsWith('._S3rver_object')) found.push(path.join(dir, e));
      else if (!e.includes('._S3rver')) walk(path.join(dir, e));
    }
  };
  walk(path.join(h.dataDir, 's3-server', 'readiness', 'answers'));
  return found;
}

const upload = async (token: string, fields: Record<string, string>, name: string, data: Buffer) => {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([data], { type: 'image/png' }), name);
  const res = await fetch(`${h.url}/api/student/${token}/files`, { method: 'POST', body: form });
  return { status: res.status, json: (await res.json()) as JsonBody };
};

const begin = async () => {
  const s = await inviteStudent(h);
  const { json } = await studentCall(h, 'POST', `/api/student/${s.token}/start`);
  return { ...s, attemptId: json.attempt.id as string };
};

/** The submitted event of an attempt, once the bus delivered it. */
const submittedEvent = (attemptId: string) =>
  eventually(
    () =>
      h.eventsNamed('student.attempt.submitted.v1').find((e) => e.payload.attemptId === attemptId) ?? false,
    'the submitted event',
  );

const fileRows = async (attemptId: string) =>
  h.database.execute<{ question_id: string; object_key: string }>(
    sql`SELECT question_id, object_key FROM attempt_files WHERE attempt_id = ${attemptId}`,
  );

test('when a student uploads an allowed file, then it is kept under a server key, a second one replaces it, and an admin downloads it as an attachment', async () => {
  const s = await begin();
  const first = await upload(
    s.token,
    { attemptId: s.attemptId, questionId: 'q3' },
    '../../etc/My essay.pdf',
    PDF,
  );
  expect(first.status).toBe(201);
  expect(first.json.file).toMatchObject({
    questionId: 'q3',
    originalName: 'My essay.pdf',
    size: PDF.length,
    mimetype: 'application/pdf',
  });
  const [row] = await fileRows(s.attemptId);
  expect(row!.object_key).toMatch(new RegExp(`^answers/${s.id}/${s.attemptId}/[0-9a-f-]{36}\\.pdf$`));

  const second = await upload(s.token, { attemptId: s.attemptId, questionId: 'q3' }, 'Résumé photo.png', PNG);
  expect(second.status).toBe(201);
  const rows = await fileRows(s.attemptId);
  expect(rows).toHaveLength(1);
  expect(rows[0]!.object_key).toMatch(/\.png$/);
  expect(objectsOnDisk()).toHaveLength(1);

  const page = await studentCall(h, 'GET', `/api/student/${s.token}/assessment`);
  expect(page.json.attempt.files).toEqual([second.json.file]);

  const download = await h.call('GET', `/api/admin/students/${s.id}/attempts/${s.attemptId}/files/q3`);
  expect(download.status).toBe(200);
  expect(download.headers.get('content-type')).toBe('image/png');
  expect(download.headers.get('x-content-type-options')).toBe('nosniff');
  expect(download.headers.get('content-disposition')).toBe(
    `attachment; filename="R_sum_ photo.png"; filename*=UTF-8''R%C3%A9sum%C3%A9%20photo.png`,
  );
  expect(Buffer.from(await download.arrayBuffer())).toEqual(PNG);
  expect((await fetch(`${h.url}/api/admin/students/${s.id}/attempts/${s.attemptId}/files/q3`)).status).toBe(
    401,
  );
  expect((await h.call('GET', `/api/admin/students/${s.id}/attempts/${s.attemptId}/files/q1`)).status).toBe(
    404,
  );
  expect((await h.call('GET', `/api/admin/students/x/attempts/y/files/q3`)).status).toBe(404);

  // The file counts at submit as 'file_uploaded', with its key.
  await studentCall(h, 'POST', `/api/student/${s.token}/submit`, { answers: [] });
  const event = await submittedEvent(s.attemptId);
  expect(event.payload.answers).toEqual([
    expect.objectContaining({
      questionId: 'q3',
      answer: 'file_uploaded',
      file: expect.objectContaining({
        key: rows[0]!.object_key,
        originalName: 'Résumé photo.png',
        mimetype: 'image/png',
      }),
    }),
  ]);

  // Erasing the student removes their objects.
  expect((await h.call('DELETE', `/api/admin/students/${s.id}`)).status).toBe(200);
  expect(objectsOnDisk()).toHaveLength(0);
});

test("when a student uploads one question's file from several tabs at once, then one file is kept and every replaced object is removed", async () => {
  const s = await begin();
  const inAttempt = () => objectsOnDisk().filter((p) => p.includes(s.attemptId));
  const burst = await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      upload(s.token, { attemptId: s.attemptId, questionId: 'q3' }, `Take ${i}.png`, PNG),
    ),
  );
  expect(burst.map((r) => r.status)).toEqual(Array(8).fill(201));
  const rows = await fileRows(s.attemptId);
  expect(rows).toHaveLength(1);
  const kept = inAttempt();
  expect(kept).toHaveLength(1);
  expect(kept[0]).toContain(path.basename(rows[0]!.object_key));

  // Once the attempt is submitted, an upload is refused and leaves no object behind.
  await studentCall(h, 'POST', `/api/student/${s.token}/submit`, { answers: [] });
  const late = await upload(s.token, { attemptId: s.attemptId, questionId: 'q3' }, 'Late.png', PNG);
  expect(late.status).toBeGreaterThanOrEqual(400);
  expect(inAttempt()).toHaveLength(1);
  expect(await fileRows(s.attemptId)).toEqual(rows);
  expect((await h.call('DELETE', `/api/admin/students/${s.id}`)).status).toBe(200);
});

test('when a file is uploaded between the submit reading the attempt and ending it, then the submitted event names the file the attempt keeps', async () => {
  // A submit reads the attempt and its files, then ends it with its event in one statement, only if the files are
  // unchanged: else it reads again. The outbox held locked stops the submit between its read and its write.
  const s = await begin();
  const first = await upload(s.token, { attemptId: s.attemptId, questionId: 'q3' }, 'First.png', PNG);
  expect(first.status).toBe(201);
  let submit: ReturnType<typeof studentCall> | undefined;
  await h.database.transaction(async (tx) => {
    await tx.execute(sql`LOCK TABLE outbox IN SHARE MODE`);
    submit = studentCall(h, 'POST', `/api/student/${s.token}/submit`, {
      attemptId: s.attemptId,
      answers: [{ questionId: 'q1', answer: 'yes' }],
    });
    await eventually(async () => {
      const [row] = await h.database.execute<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM pg_locks WHERE relation = 'outbox'::regclass AND NOT granted`,
      );
      return row!.n > 0;
    }, 'the submit waiting to write');
    const second = await upload(s.token, { attemptId: s.attemptId, questionId: 'q3' }, 'Second.png', PNG);
    expect(second.status).toBe(201);
  });
  expect((await submit!).status).toBe(202);
  const event = (await submittedEvent(s.attemptId)).payload;
  const kept = await fileRows(s.attemptId);
  expect(kept).toHaveLength(1);
  expect(
    event.answers.filter((a) => a.file).map((a) => [a.questionId, a.file!.key, a.file!.originalName]),
  ).toEqual([['q3', kept[0]!.object_key, 'Second.png']]);
  expect((await h.call('DELETE', `/api/admin/students/${s.id}`)).status).toBe(200);
});

test('when a file is refused (type, renamed executable, size, wrong question), then nothing is stored', async () => {
  const s = await begin();
  const fields = { attemptId: s.attemptId, questionId: 'q3' };
  const refused: Array<[string, Buffer, number, string]> = [
    ['setup.exe', EXE, 400, 'file_type'],
    ['holiday.png', EXE, 400, 'file_type'],
    ['report.pdf', PNG, 400, 'file_type'],
    ['notes.txt', Buffer.from([0, 1, 2, 3]), 400, 'file_type'],
    ['animation.gif', Buffer.from('GIF89a0000'), 400, 'file_type'],
    ['empty.pdf', Buffer.alloc(0), 400, 'file_type'],
    ['huge.png', Buffer.concat([PNG, Buffer.alloc(MAX_BYTES, 1)]), 413, 'file_too_large'],
  ];
  for (const [name, data, status, code] of refused) {
    const res = await upload(s.token, fields, name, data);
    expect([name, res.status, res.json.code]).toEqual([name, status, code]);
  }
  const typeRes = await upload(s.token, fields, 'setup.exe', EXE);
  expect(typeRes.json.message).toBe(
    'Only PDF, Word (doc, docx), text and image (jpg, jpeg, png) files can be uploaded',
  );
  expect((await upload(s.token, fields, 'huge.png', Buffer.alloc(MAX_BYTES + 1))).json.message).toBe(
    'The file is larger than 0.1 MB',
  );
  expect((await upload(s.token, { ...fields, questionId: 'q1' }, 'a.png', PNG)).status).toBe(400);
  expect((await upload(s.token, { ...fields, questionId: 'nope' }, 'a.png', PNG)).status).toBe(400);
  const other = await begin();
  expect((await upload(s.token, { ...fields, attemptId: other.attemptId }, 'a.png', PNG)).status).toBe(404);
  expect(await fileRows(s.attemptId)).toEqual([]);
  expect(objectsOnDisk()).toHaveLength(0);
});

test('when a file is removed, then its row and object go', async () => {
  const s = await begin();
  expect(
    (await upload(s.token, { attemptId: s.attemptId, questionId: 'q3' }, 'a.txt', Buffer.from('hello')))
      .status,
  ).toBe(201);
  expect(objectsOnDisk()).toHaveLength(1);
  expect((await studentCall(h, 'DELETE', `/api/student/${s.token}/files/q3`)).status).toBe(200);
  expect(await fileRows(s.attemptId)).toEqual([]);
  expect(objectsOnDisk()).toHaveLength(0);
  expect((await studentCall(h, 'DELETE', `/api/student/${s.token}/files/q3`)).status).toBe(404);
});

test('when a multipart submit carries files (SPEC §7), then they are kept and recorded as file_uploaded', async () => {
  const s = await begin();
  const form = new FormData();
  form.append(
    'answers',
    JSON.stringify([
      { questionId: 'q1', answer: 'yes' },
      { questionId: 'q3', answer: 'file_uploaded' },
    ]),
  );
  form.append('timeSpent', '2');
  form.append('startedAt', new Date().toISOString());
  form.append('files', new Blob([PDF]), 'answer.pdf');
  const res = await fetch(`${h.url}/api/student/${s.token}/submit`, { method: 'POST', body: form });
  expect(res.status).toBe(202);
  const event = await submittedEvent(s.attemptId);
  expect(event.payload.answers).toEqual([
    expect.objectContaining({ questionId: 'q1', answer: 'yes' }),
    expect.objectContaining({
      questionId: 'q3',
      answer: 'file_uploaded',
      file: expect.objectContaining({ originalName: 'answer.pdf', mimetype: 'application/pdf' }),
    }),
  ]);
  expect(await fileRows(s.attemptId)).toHaveLength(1);

  // A refused file in a multipart submit ends nothing and stores nothing.
  const t = await begin();
  const bad = new FormData();
  bad.append('answers', JSON.stringify([{ questionId: 'q3', answer: 'file_uploaded' }]));
  bad.append('fileQuestionIds', JSON.stringify(['q3']));
  bad.append('files', new Blob([EXE]), 'answer.pdf');
  const refused = await fetch(`${h.url}/api/student/${t.token}/submit`, { method: 'POST', body: bad });
  expect(refused.status).toBe(400);
  expect(await fileRows(t.attemptId)).toEqual([]);
  const [row] = await h.database.execute<{ status: string }>(
    sql`SELECT status FROM attempts WHERE id = ${t.attemptId}`,
  );
  expect(row!.status).toBe('in_progress');
});
