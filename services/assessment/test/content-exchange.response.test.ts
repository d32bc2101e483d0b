import { sql } from 'drizzle-orm';
import { PNG_1X1, adminToken, sampleAssessment, startAssessment, type Harness } from './harness';

jest.setTimeout(60_000);

let h: Harness;
const token = adminToken();
const MAX_IMPORT_BYTES = 256 * 1024;

beforeAll(async () => {
  h = await startAssessment('embedded', { config: { ASSESSMENT_IMPORT_MAX_BYTES: MAX_IMPORT_BYTES } });
});
afterAll(() => h?.close());

interface Preview {
  content: ReturnType<typeof sampleAssessment> & {
    questions: { id: string; downloadableFile?: { originalName: string; filename: string } }[];
  };
  counts: Record<string, number>;
  leftOut: { item: string; reason: string }[];
  message?: string;
}

const importFile = async (name: string, data: Buffer, withToken: string | null = token) => {
  const form = new FormData();
  form.append('file', new Blob([data]), name);
  const res = await fetch(`${h.url}/api/assessment/import`, {
    method: 'POST',
    headers: withToken ? { authorization: `Bearer ${withToken}` } : {},
    body: form,
  });
  return { status: res.status, body: (await res.json()) as Preview };
};

const versionCount = async () =>
  Number((await h.database.execute<{ n: string }>(sql`SELECT count(*) AS n FROM assessment_versions`))[0]!.n);

test('when a saved version is exported in each format and imported again, then the editor gets the same content and nothing is saved', async () => {
  const uploaded = (await (await h.upload('desk.png', PNG_1X1, token)).json()) as {
    file: { originalName: string; filename: string; size: number };
  };
  const questions = sampleAssessment().questions.map((q) =>
    q.id === 'q3' ? { ...q, hasDownloadableFile: true, downloadableFile: uploaded.file } : q,
  );
  const saved = await h.call('PUT', '/api/assessment', { token, body: sampleAssessment({ questions }) });
  expect(saved.status).toBe(200);
  const before = await versionCount();

  for (const [format, type, ext] of [
    ['moodle-xml', 'application/xml', 'xml'],
    ['qti3', 'application/zip', 'zip'],
  ] as const) {
    const res = await h.call('GET', `/api/assessment/versions/1/export?format=${format}`, { token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain(type);
    expect(res.headers.get('content-disposition')).toContain(`readiness-check-v1-`);
    const { status, body } = await importFile(`export.${ext}`, Buffer.from(await res.arrayBuffer()));
    expect(status).toBe(200);
    expect(body.leftOut).toEqual([]);
    expect(body.counts).toEqual({ sections: 2, yes_no: 1, multiple_choice: 1, file_upload: 1 });
    expect(body.content.sections).toEqual(sampleAssessment().sections);
    expect(
      body.content.questions.map(({ downloadableFile, ...q }) => ({
        ...q,
        file: downloadableFile?.originalName,
      })),
    ).toEqual(
      questions.map(({ downloadableFile, ...q }) => ({
        ...q,
        hasDownloadableFile: Boolean(downloadableFile),
        file: downloadableFile?.originalName,
      })),
    );
    // The file is stored again as an upload, so the editor's save accepts it.
    expect(body.content.questions[2]!.downloadableFile!.filename).not.toBe(uploaded.file.filename);
  }
  expect(await versionCount()).toBe(before);
});

test('when the file is hostile, too large, or the caller no admin, then it is refused with a clear message and nothing is saved', async () => {
  const before = await versionCount();
  const xxe = Buffer.from(
    '<?xml version="1.0"?><!DOCTYPE quiz [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><quiz>&xxe;</quiz>',
  );
  expect(await importFile('bank.xml', xxe)).toMatchObject({
    status: 400,
    body: { message: 'The file: a document type declaration (DTD) is not accepted' },
  });
  expect(await importFile('big.xml', Buffer.alloc(MAX_IMPORT_BYTES + 1, 0x20))).toMatchObject({
    status: 413,
    body: { message: 'File is too large: the limit is 0.3 MB' },
  });
  expect((await importFile('bank.xml', xxe, null)).status).toBe(401);
  const pathInName = Buffer.from(
    `<quiz><question type="essay"><name><text>Desk</text></name><questiontext format="html"><text>Your desk</text><file name="../../etc/\u0007desk.png" encoding="base64">${PNG_1X1.toString('base64')}</file></questiontext><attachments>1</attachments></question></quiz>`,
  );
  const named = await importFile('bank.xml', pathInName);
  expect(named.body.content.questions[0]!.downloadableFile!.originalName).toBe('desk.png');
  const unknown = await h.call('GET', '/api/assessment/versions/1/export?format=docx', { token });
  expect(unknown.status).toBe(400);
  expect(await versionCount()).toBe(before);
});
