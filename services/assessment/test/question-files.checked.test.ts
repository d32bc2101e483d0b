import { readdirSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { QuestionFileChange } from '@readiness/contracts';
import { eventually } from '@readiness/testing';
import { EXE_BYTES, PNG_1X1, adminToken, sampleAssessment, startAssessment, type Harness } from './harness';

jest.setTimeout(60_000);

let h: Harness;
const token = adminToken();
const MAX_BYTES = 64 * 1024;

beforeAll(async () => {
  h = await startAssessment('real', { config: { ASSESSMENT_FILE_MAX_BYTES: MAX_BYTES } });
});
afterAll(() => h?.close());

interface StoredFile {
  originalName: string;
  filename: string;
  size: number;
}

const upload = async (name: string, data: Buffer) => {
  const res = await h.upload(name, data, token);
  return {
    status: res.status,
    body: (await res.json()) as { file: StoredFile; message: string; code: string },
  };
};

const storedFiles = async () =>
  (await h.database.execute<{ filename: string }>(sql`SELECT filename FROM assessment_files`)).map(
    (r) => r.filename,
  );

/** Objects in the S3 server's folder (s3rver keeps one folder per object). */
const objectsOnDisk = () => {
  const root = path.join(h.service.config.DATA_DIR!, 's3-server', 'readiness', 'questions');
  try {
    return [...new Set(readdirSync(root).map((f) => f.split('._S3rver')[0]))];
  } catch {
    return [];
  }
};

const saveWithFile = async (file: StoredFile, baseVersion?: number) => {
  const q = sampleAssessment().questions;
  const res = await h.call('PUT', '/api/assessment', {
    token,
    body: sampleAssessment({
      baseVersion,
      questions: q.map((question) =>
        question.id === 'q3' ? { ...question, hasDownloadableFile: true, downloadableFile: file } : question,
      ),
    }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { assessment: { version: number } }).assessment.version;
};

test('when an executable is renamed to .png, then it is refused and nothing is stored', async () => {
  const res = await upload('holiday.png', EXE_BYTES);
  expect(res.status).toBe(400);
  expect(res.body.message).toBe(
    'Only these file types are accepted: jpg, jpeg, png, gif, pdf, doc, docx, txt, zip',
  );
  expect(await storedFiles()).toEqual([]);
  expect((await upload('setup.exe', PNG_1X1)).status).toBe(400);
  expect((await upload('notes.txt', Buffer.from([0x00, 0x01, 0x02]))).status).toBe(400);
  expect(objectsOnDisk()).toEqual([]);
});

test('when a file is over the size limit, then 413 and nothing is stored', async () => {
  const big = Buffer.concat([PNG_1X1, Buffer.alloc(MAX_BYTES, 1)]);
  const res = await upload('huge.png', big);
  expect(res.status).toBe(413);
  expect(res.body.message).toMatch(/too large/);
  expect(await storedFiles()).toEqual([]);
  expect(objectsOnDisk()).toEqual([]);
});

test('when a real PNG is uploaded and a version uses it, then anyone downloads it as an attachment under its original name', async () => {
  const res = await upload('Plan d’étude.png', PNG_1X1);
  expect(res.status).toBe(201);
  const file = res.body.file;
  expect(file).toEqual({
    originalName: 'Plan d’étude.png',
    filename: expect.stringMatching(/^[0-9a-f-]{36}\.png$/),
    size: PNG_1X1.length,
  });

  expect(objectsOnDisk()).toContain(file.filename);
  // Not yet part of any version: not downloadable.
  expect((await fetch(`${h.url}/api/assessment/files/${file.filename}`)).status).toBe(404);

  await saveWithFile(file);
  const download = await fetch(`${h.url}/api/assessment/files/${file.filename}`);
  expect(download.status).toBe(200);
  expect(download.headers.get('content-type')).toBe('image/png');
  expect(download.headers.get('x-content-type-options')).toBe('nosniff');
  expect(download.headers.get('content-disposition')).toBe(
    `attachment; filename="Plan d_étude.png"; filename*=UTF-8''Plan%20d%E2%80%99%C3%A9tude.png`.replace(
      'é',
      '_',
    ),
  );
  expect(Buffer.from(await download.arrayBuffer()).equals(PNG_1X1)).toBe(true);

  // The event is published after the save commits: wait for it rather than for the clock.
  const published = await eventually(
    () => h.published.find((v) => v.questions[2]?.downloadableFile?.filename === file.filename) ?? false,
    'the published version',
  );
  expect(published.questions[2]!.downloadableFile).toMatchObject({
    filename: file.filename,
    originalName: 'Plan d’étude.png',
    size: BigInt(PNG_1X1.length),
    mimetype: 'image/png',
  });

  // Used by version 1: deleting only detaches it, and it stays downloadable.
  const del = await h.call('DELETE', `/api/assessment/file/${file.filename}`, { token });
  expect(del.status).toBe(200);
  expect(((await del.json()) as { removed: boolean }).removed).toBe(false);
  expect((await fetch(`${h.url}/api/assessment/files/${file.filename}`)).status).toBe(200);
});

test('when an uploaded file no version uses is deleted, then it is gone', async () => {
  const { body } = await upload(
    'unused.pdf',
    Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n', 'latin1'),
  );
  expect(objectsOnDisk()).toContain(body.file.filename);
  const del = await h.call('DELETE', `/api/assessment/file/${body.file.filename}`, { token });
  expect(((await del.json()) as { removed: boolean }).removed).toBe(true);
  expect(await storedFiles()).not.toContain(body.file.filename);
  expect(objectsOnDisk()).not.toContain(body.file.filename);
  expect((await h.call('DELETE', `/api/assessment/file/${body.file.filename}`, { token })).status).toBe(404);
  // The upload and the removal are announced for the audit log, naming the admin (issue 43, item 6).
  const changes = await eventually(() => {
    const found = h
      .eventsNamed('assessment.question-file.changed.v1')
      .filter((e) => e.payload.filename === body.file.filename);
    return found.length >= 2 ? found.map((e) => e.payload) : false;
  }, 'the question file events');
  expect(changes).toEqual([
    expect.objectContaining({
      originalName: 'unused.pdf',
      change: QuestionFileChange.UPLOADED,
      actorId: expect.any(String),
    }),
    expect.objectContaining({ originalName: 'unused.pdf', change: QuestionFileChange.REMOVED }),
  ]);
});

test('when a name no upload produced is asked for, then 404', async () => {
  expect((await fetch(`${h.url}/api/assessment/files/..%2F..%2Fetc%2Fpasswd`)).status).toBe(404);
  expect((await fetch(`${h.url}/api/assessment/files/nothing.png`)).status).toBe(404);
});
