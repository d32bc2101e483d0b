import { contentTranslations } from '@readiness/contracts';
import { eventually } from '@readiness/testing';
import { sql } from 'drizzle-orm';
import { EXE_BYTES, PNG_1X1, adminToken, sampleAssessment, startAssessment, type Harness } from './harness';

jest.setTimeout(90_000);

/*
 * A question's downloadable file per language (issue 27 item 4): uploaded as the English one is, saved in the
 * version's translations, checked, served on every read and published.
 */

let h: Harness;
const token = adminToken();
const MAX_BYTES = 64 * 1024;

beforeAll(async () => {
  h = await startAssessment('embedded', { config: { ASSESSMENT_FILE_MAX_BYTES: MAX_BYTES } });
});
afterAll(() => h?.close());

interface StoredFile {
  originalName: string;
  filename: string;
  size: number;
}

const PDF = Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n', 'latin1');

const upload = async (name: string, data: Buffer) => {
  const res = await h.upload(name, data, token);
  return { status: res.status, body: (await res.json()) as { file: StoredFile; message: string } };
};

const uploaded = async (name: string, data: Buffer) => {
  const res = await upload(name, data);
  expect(res.status).toBe(201);
  return res.body.file;
};

const current = async () => {
  const res = await h.call('GET', '/api/assessment', { token });
  return res.status === 200
    ? ((await res.json()) as { assessment: { version: number; translations: unknown } }).assessment
    : undefined;
};

const versionCount = async () =>
  ((await (await h.call('GET', '/api/assessment/versions', { token })).json()) as { versions: unknown[] })
    .versions.length;

/** Saves the sample assessment, q3 offering `english` (when given), with these translations. */
const save = async (translations: unknown, english?: StoredFile | null) => {
  const base = await current();
  return h.call('PUT', '/api/assessment', {
    token,
    body: sampleAssessment({
      baseVersion: base?.version,
      questions: sampleAssessment().questions.map((q) =>
        q.id === 'q3' && english ? { ...q, hasDownloadableFile: true, downloadableFile: english } : q,
      ),
      translations,
    }),
  });
};

const download = (filename: string) => fetch(`${h.url}/api/assessment/files/${filename}`);

test('when a question offers a file in Spanish and Arabic, then each is saved, served, downloadable and published', async () => {
  const english = await uploaded('weekly-plan.pdf', PDF);
  const spanish = await uploaded('plan semanal.png', PNG_1X1);
  const arabic = await uploaded('الخطة الأسبوعية.pdf', PDF);
  // Not in any version yet: not downloadable.
  expect((await download(spanish.filename)).status).toBe(404);

  const res = await save(
    {
      es: {
        questions: {
          q3: {
            fileInstructions: 'Complete la plantilla',
            // A url or type the client adds is not kept: the server says where a file is.
            downloadableFile: { ...spanish, url: 'https://evil.example/x', mimetype: 'text/html' },
          },
        },
      },
      ar: { questions: { q3: { downloadableFile: arabic } } },
    },
    english,
  );
  expect(res.status).toBe(200);
  const expected = {
    es: { questions: { q3: { fileInstructions: 'Complete la plantilla', downloadableFile: spanish } } },
    ar: { questions: { q3: { downloadableFile: arabic } } },
  };
  const saved = ((await res.json()) as { assessment: { id: string; version: number; translations: unknown } })
    .assessment;
  expect(saved.translations).toEqual(expected);
  expect((await current())!.translations).toEqual(expected);
  const byNumber = await h.call('GET', `/api/assessment/versions/${saved.version}`, { token });
  expect(
    ((await byNumber.json()) as { assessment: { translations: unknown } }).assessment.translations,
  ).toEqual(expected);

  // Downloadable at the same address as the English file, as the uploaded bytes.
  const got = await download(spanish.filename);
  expect(got.status).toBe(200);
  expect(got.headers.get('content-type')).toBe('image/png');
  expect(Buffer.from(await got.arrayBuffer()).equals(PNG_1X1)).toBe(true);
  expect((await download(arabic.filename)).status).toBe(200);

  const event = await eventually(
    () => h.published.find((e) => e.versionId === saved.id) ?? false,
    'the published version',
  );
  const es = event.translations.find((t) => t.language === 'es')!;
  expect(es.questions[0]!.downloadableFile).toMatchObject({
    filename: spanish.filename,
    originalName: 'plan semanal.png',
    size: BigInt(PNG_1X1.length),
    mimetype: 'image/png',
  });
  expect(event.translations.find((t) => t.language === 'ar')!.questions[0]!.downloadableFile).toMatchObject({
    filename: arabic.filename,
    originalName: 'الخطة الأسبوعية.pdf',
    mimetype: 'application/pdf',
  });
  // The English file is the question's own, unchanged.
  expect(event.questions.find((q) => q.id === 'q3')!.downloadableFile!.filename).toBe(english.filename);
  // What a consumer reads back from the event: the saved file, with its type.
  expect(contentTranslations(event.translations).es!.questions!.q3!.downloadableFile).toEqual({
    ...spanish,
    mimetype: 'image/png',
  });

  // Deleting a translated file a version uses only detaches it: it stays downloadable.
  const del = await h.call('DELETE', `/api/assessment/file/${spanish.filename}`, { token });
  expect(((await del.json()) as { removed: boolean }).removed).toBe(false);
  expect((await download(spanish.filename)).status).toBe(200);
});

test('when the translated file is the English file itself, then that is allowed', async () => {
  const english = await uploaded('same.pdf', PDF);
  const res = await save({ fr: { questions: { q3: { downloadableFile: english } } } }, english);
  expect(res.status).toBe(200);
});

test('when a hostile name or a disguised type is uploaded for a language, then the existing upload checks refuse or neutralise it', async () => {
  // An executable named .pdf: refused, nothing stored.
  const disguised = await upload('plan.pdf', EXE_BYTES);
  expect(disguised.status).toBe(400);
  expect(disguised.body.message).toBe(
    'Only these file types are accepted: jpg, jpeg, png, gif, pdf, doc, docx, txt, zip',
  );
  const tooBig = await upload('huge.png', Buffer.concat([PNG_1X1, Buffer.alloc(MAX_BYTES, 1)]));
  expect(tooBig.status).toBe(413);
  // A path in the name is only a name: the stored name is the server's own.
  const english = await uploaded('plan.pdf', PDF);
  const hostile = await uploaded('../../etc/passwd.png', PNG_1X1);
  expect(hostile.filename).toMatch(/^[0-9a-f-]{36}\.png$/);
  const res = await save({ pt: { questions: { q3: { downloadableFile: hostile } } } }, english);
  expect(res.status).toBe(200);
  const got = await download(hostile.filename);
  expect(got.status).toBe(200);
  expect(got.headers.get('content-disposition')).not.toContain('/');
});

const files = async () =>
  (await h.database.execute<{ filename: string }>(sql`SELECT filename FROM assessment_files`)).length;

test.each([
  [
    'a question offering no file is given one',
    (f: StoredFile) => ({ es: { questions: { q1: { downloadableFile: f } } } }),
    true,
    'Spanish translation: question q1 offers no downloadable file, so it has no translated file',
  ],
  [
    'the question stopped offering its English file',
    (f: StoredFile) => ({ fr: { questions: { q3: { downloadableFile: f } } } }),
    false,
    'French translation: question q3 offers no downloadable file, so it has no translated file',
  ],
  [
    'the file was never uploaded',
    (f: StoredFile) => ({
      pt: {
        questions: {
          q3: { downloadableFile: { ...f, filename: '00000000-0000-4000-8000-000000000000.pdf' } },
        },
      },
    }),
    true,
    'Portuguese translation: the downloadable file of question q3 must be a file uploaded first',
  ],
  [
    'the file names a path, not a stored file',
    (f: StoredFile) => ({
      ar: { questions: { q3: { downloadableFile: { ...f, filename: '../seed.pdf' } } } },
    }),
    true,
    'Arabic translation: the downloadable file of question q3 must be a file uploaded first',
  ],
  [
    'the question is not the version’s',
    (f: StoredFile) => ({ es: { questions: { q9: { downloadableFile: f } } } }),
    true,
    'Spanish translation: question q9 does not exist',
  ],
  [
    'the practice question is given a file',
    (f: StoredFile) => ({ es: { practiceQuestion: { question: '¿?', downloadableFile: f } } }),
    true,
    'Spanish translation: the version has no practice question',
  ],
])(
  'when %s, then the save answers 400 naming the language and question, and changes nothing',
  async (_what, translations, withEnglish, message) => {
    const english = await uploaded('english.pdf', PDF);
    const file = await uploaded('translated.pdf', PDF);
    const before = { versions: await versionCount(), files: await files(), current: await current() };
    const res = await save(translations(file), withEnglish ? english : null);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toBe(message);
    expect({ versions: await versionCount(), files: await files(), current: await current() }).toEqual(
      before,
    );
    expect((await download(file.filename)).status).toBe(404);
  },
);

test('when a translated file is not a file as the save takes it, then 400', async () => {
  const english = await uploaded('english.pdf', PDF);
  const before = await versionCount();
  const res = await save({ es: { questions: { q3: { downloadableFile: { filename: 'x.pdf' } } } } }, english);
  expect(res.status).toBe(400);
  expect(await versionCount()).toBe(before);
});
