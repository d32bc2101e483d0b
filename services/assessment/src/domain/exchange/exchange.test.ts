import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { assessmentInput } from '@readiness/testing/fixtures';
import { zipSync } from 'fflate';
import type { AssessmentContent } from '../assessment';
import { htmlToText } from './html-text';
import type { ExportFiles, Imported } from './model';
import { toMoodleXml } from './moodle-xml';
import { toQtiPackage } from './qti';
import { readContentFile } from './read-file';
import { readZip, writeZip } from './zip';

const SAMPLES = path.join(__dirname, '../../../../../docs/samples');

/** The first bytes of a real 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const FILE = {
  originalName: 'desk.png',
  filename: '7f6c1b1e-9a0e-4a57-8f43-2d3f1f1b2c3d.png',
  size: PNG.length,
};

/** Spanish for a text of each kind, French for one: what Moodle's multi-language spans carry. */
const TRANSLATIONS = {
  es: {
    sections: { '1': { description: 'Tu equipo' } },
    questions: {
      q1: { question: '¿Tienes un ordenador?' },
      q2: { question: '¿Con qué frecuencia estudias?', options: { a: 'Nunca', b: 'Cada día' } },
      q3: { fileInstructions: 'Una foto o un PDF' },
    },
  },
  fr: { questions: { q1: { question: 'Avez-vous un ordinateur ?' } } },
};

/** The fixtures' assessment, its file question with a file, a section drawn, options shuffled. */
const content = (): AssessmentContent => {
  const input = assessmentInput();
  return {
    ...input,
    sections: [input.sections[0]!, { ...input.sections[1]!, draw: 1 }],
    questions: input.questions.map((q) =>
      q.type === 'file_upload' ? { ...q, hasDownloadableFile: true, downloadableFile: FILE } : q,
    ),
    shuffleQuestions: true,
    shuffleOptions: true,
    practiceQuestion: null,
    translations: TRANSLATIONS,
  };
};
const files: ExportFiles = new Map([[FILE.filename, { originalName: FILE.originalName, data: PNG }]]);

/** The questions as an import gives them back: the file by its name and bytes. */
const asImported = (c: AssessmentContent) =>
  c.questions.map(({ downloadableFile, hasDownloadableFile: _has, ...q }) => ({
    ...q,
    ...(downloadableFile ? { file: { name: downloadableFile.originalName, data: PNG } } : {}),
  }));

const reasons = (imported: Imported) => imported.leftOut.map((l) => [l.item, l.reason]);

describe('round trip', () => {
  test('when a version is exported as Moodle XML and read back, then its questions, sections and file are the same', () => {
    const original = content();
    const back = readContentFile(Buffer.from(toMoodleXml(original, files)));
    expect(back.leftOut).toEqual([]);
    expect(back.questions).toEqual(asImported(original));
    // Moodle's categories hold no draw.
    expect(back.sections).toEqual(original.sections.map(({ draw: _draw, ...s }) => s));
    expect(back.settings).toEqual({ title: original.title });
    expect(back.translations).toEqual(TRANSLATIONS);
  });

  test('when a version is exported as a QTI 3.0 package and read back, then the content and its settings are the same', () => {
    const original = content();
    const back = readContentFile(writeZip(toQtiPackage(original, 4, files)));
    expect(back.leftOut).toEqual([]);
    expect(back.questions).toEqual(asImported(original));
    expect(back.sections).toEqual(original.sections);
    expect(back.settings).toEqual({
      title: original.title,
      timeLimit: original.timeLimit,
      passingScore: original.passingScore,
      shuffleQuestions: true,
      shuffleOptions: true,
    });
    // One package is in one language: the translations stay behind (README.txt says so).
    expect(back.translations).toEqual({});
  });
});

describe('the QTI 3.0 package', () => {
  const pkg = toQtiPackage(content(), 4, files);
  const text = (p: string) => Buffer.from(pkg[p]!).toString('utf8');

  test('when exported, then it holds the manifest, the test, one item per question, the file and a README', () => {
    expect(Object.keys(pkg).sort()).toEqual(
      [
        'README.txt',
        'files/q3/desk.png',
        'imsmanifest.xml',
        'items/q1.xml',
        'items/q2.xml',
        'items/q3.xml',
        'test.xml',
      ].sort(),
    );
    const manifest = text('imsmanifest.xml');
    for (const type of ['imsqti_test_xmlv3p0', 'imsqti_item_xmlv3p0', 'webcontent'])
      expect(manifest).toContain(type);
    expect(text('test.xml')).toMatch(/<qti-time-limits max-time="1200"\/>/);
    expect(text('test.xml').match(/<qti-assessment-section /g)).toHaveLength(2);
    expect(text('test.xml')).toContain('<qti-selection select="1"/>');
    expect(text('items/q3.xml')).toContain('<qti-upload-interaction');
    expect(text('items/q3.xml')).toContain('href="../files/q3/desk.png"');
    expect(text('README.txt')).toMatch(/translations/);
  });
});

/** A folder of docs/samples as the ZIP package it stands for. */
function zipped(folder: string): Buffer {
  const dir = path.join(SAMPLES, folder);
  const entries: Record<string, Uint8Array> = {};
  const walk = (sub: string) => {
    for (const name of readdirSync(path.join(dir, sub))) {
      const rel = sub ? `${sub}/${name}` : name;
      if (statSync(path.join(dir, rel)).isDirectory()) walk(rel);
      else entries[rel] = readFileSync(path.join(dir, rel));
    }
  };
  walk('');
  return Buffer.from(zipSync(entries));
}

describe('imports of the docs samples', () => {
  test('when the Moodle XML sample is read, then categories become sections and each unsupported item has its reason', () => {
    const imported = readContentFile(readFileSync(path.join(SAMPLES, 'moodle-questions.xml')));
    expect(imported.sections.map((s) => [s.id, s.title, s.description])).toEqual([
      [1, 'Getting started', 'Your computer and connection.'],
      [2, 'Study habits', ''],
    ]);
    expect(
      imported.questions.map((q) => [q.id, q.type, q.section, q.points, q.required, q.correctAnswer]),
    ).toEqual([
      ['Own-computer', 'yes_no', 1, 1, true, 'yes'],
      ['Connection-speed', 'multiple_choice', 1, 2, true, 'b'],
      ['Study-space', 'file_upload', 2, 3, true, undefined],
    ]);
    // The script is gone, the bold text kept as text.
    expect(imported.questions[0]!.question).toBe('Do you have a computer you can use every day?');
    expect(reasons(imported)).toEqual([
      [
        'Connection speed',
        'the image https://example.com/tracker.png is not kept: remote images are not loaded',
      ],
      ['Devices', 'multiple correct answers'],
      [
        'Goals',
        'an essay without file attachments is not supported (Readiness collects files, not typed answers)',
      ],
      ['Tools and uses', 'matching questions are not supported'],
      ['Weekly hours', 'formula question'],
      ['Browser name', 'short-answer questions are not supported'],
    ]);
  });

  test('when the QTI 2.1 sample package is read, then its test gives the section and time limit, and the text entry is left out', () => {
    const imported = readContentFile(zipped('qti21-package'));
    expect(imported.settings).toEqual({
      title: 'Online learning readiness',
      timeLimit: 30,
      shuffleOptions: true,
    });
    expect(imported.sections).toEqual([{ id: 1, title: 'Study habits', description: '' }]);
    expect(imported.questions).toEqual([
      {
        id: 'choice',
        type: 'multiple_choice',
        question: 'How many hours a week can you set aside for study?',
        section: 1,
        points: 1,
        required: true,
        options: [
          { id: 'ChoiceA', text: 'Fewer than two' },
          { id: 'ChoiceB', text: 'Six or more' },
        ],
        correctAnswer: 'ChoiceB',
      },
      {
        id: 'upload',
        type: 'file_upload',
        question: 'Upload your weekly timetable.',
        section: 1,
        points: 1,
        required: false,
        fileInstructions: 'A PDF or a photo',
      },
    ]);
    expect(reasons(imported)).toEqual([['Browser', 'short-answer questions are not supported']]);
  });

  test('when the Canvas-shaped QTI 1.2 quiz export is read, then the quiz and its question group become sections and the rest is left out with reasons', () => {
    const imported = readContentFile(zipped('canvas-qti12-package'));
    expect(imported.settings).toEqual({ title: 'Online study check', timeLimit: 25 });
    expect(imported.sections).toEqual([
      { id: 1, title: 'Online study check', description: '' },
      { id: 2, title: 'Study space', description: '', draw: 1 },
    ]);
    expect(
      imported.questions.map((q) => [q.id, q.type, q.section, q.points, q.correctAnswer, q.file?.name]),
    ).toEqual([
      ['i1a', 'yes_no', 1, 1, 'yes', 'checklist.txt'],
      ['i2b', 'multiple_choice', 1, 2, '2003', undefined],
      ['i4d', 'file_upload', 2, 3, undefined, undefined],
      ['i6f', 'file_upload', 2, 3, undefined, undefined],
    ]);
    expect(imported.questions[0]!.question).toBe(
      'Do you have headphones with a microphone? See the checklist.',
    );
    expect(imported.questions[1]!.options).toEqual([
      { id: '2001', text: 'Fewer than 3' },
      { id: '2002', text: '3 to 6' },
      { id: '2003', text: 'More than 6' },
    ]);
    expect(reasons(imported)).toEqual([
      ['Tools', 'multiple correct answers'],
      ['Describe your room', 'typed answers are not supported (Readiness collects files, not text)'],
    ]);
  });
});

describe('HTML in question text', () => {
  test.each([
    ['<p>Hello <b>there</b></p><script>fetch("/steal")</script>', 'Hello there'],
    ['<style>p{color:red}</style><p>One</p><p>Two</p>', 'One\n\nTwo'],
    ['A&nbsp;&amp;&nbsp;B &lt;tag&gt; &#233;t&eacute;', 'A & B <tag> été'],
    ['<p onclick="x()">Line<br>break</p><!-- note -->', 'Line\nbreak'],
    ['<iframe src="https://evil.example"></iframe>Text', 'Text'],
    ['<scr<script>ipt>alert(1)</script>', ''],
    ['Is 3 < 5? <b>Yes</b>', 'Is 3 < 5? Yes'],
    ['Before<script>never closed', 'Before'],
  ])('when %j is read, then the text is %j', (html, text) => {
    expect(htmlToText(html).text).toBe(text);
  });
});

const quiz = (body: string) => Buffer.from(`<?xml version="1.0"?>\n${body}`);

describe('hostile files', () => {
  test('when a file declares an external entity (XXE), then it is refused before anything is read', () => {
    const xxe = quiz(
      '<!DOCTYPE quiz [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><quiz><question type="truefalse"><name><text>&xxe;</text></name></question></quiz>',
    );
    expect(() => readContentFile(xxe)).toThrow(/document type declaration \(DTD\) is not accepted/);
  });

  test('when a file nests entities (billion laughs), then it is refused before anything is expanded', () => {
    const lol = Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join(
      '',
    );
    const bomb = quiz(
      `<!DOCTYPE quiz [<!ENTITY lol0 "lol">${lol}]><quiz><question type="description"><name><text>&lol9;</text></name></question></quiz>`,
    );
    expect(() => readContentFile(bomb)).toThrow(/DTD/);
  });

  test('when a package has a path out of its folder (zip slip), then nothing is read', () => {
    const slip = Buffer.from(zipSync({ '../../etc/cron.d/evil.xml': Buffer.from('<quiz/>') }));
    expect(() => readZip(slip)).toThrow(/outside its own folder/);
  });

  test('when a package says it unpacks to more than the limit, or holds too many files, then it is refused before inflating', () => {
    const big = Buffer.from(zipSync({ 'a.xml': new Uint8Array(2048), 'b.xml': new Uint8Array(2048) }));
    expect(() => readZip(big, { entries: 10, totalBytes: 3000 })).toThrow(
      expect.objectContaining({ httpStatus: 413, message: expect.stringMatching(/once unpacked/) }),
    );
    expect(() => readZip(big, { entries: 1, totalBytes: 1e6 })).toThrow(/more than 1 files/);
  });

  test("when a package's directory understates an entry's size (a zip bomb), then the entry is cut at the size it said", () => {
    const bomb = Buffer.from(zipSync({ 'a.xml': new Uint8Array(1 << 20) }));
    const directory = bomb.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    bomb.writeUInt32LE(100, directory + 24);
    expect(readZip(bomb).get('a.xml')).toHaveLength(100);
  });

  test('when a ZIP is named .xml, or the file is garbage, then it is read by what it holds or refused with the formats', () => {
    const disguised = writeZip(toQtiPackage(content(), 1, files));
    expect(readContentFile(disguised).questions).toHaveLength(3);
    expect(() => readContentFile(Buffer.from([0x00, 0xff, 0x13, 0x37, 0x42]))).toThrow(
      /neither Moodle XML nor a QTI/,
    );
    expect(() => readContentFile(Buffer.from('PK\x03\x04garbage'))).toThrow(/could not be read/);
    expect(() => readContentFile(quiz('<quiz><question type="truefalse"></quiz>'))).toThrow(
      /not well-formed XML/,
    );
  });

  test('when elements are nested 100,000 deep, then the file is refused as XML that cannot be read', () => {
    const deep = quiz(`<quiz>${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}</quiz>`);
    expect(() => readContentFile(deep)).toThrow(expect.objectContaining({ httpStatus: 400 }));
  });

  test.each(['<a ', '<!--', '<script>', '<img src="x" ', '<a href="@@PLUGINFILE@@/x"'])(
    'when a question text holds %j 200,000 times, unclosed, then it is read in linear time',
    (open) => {
      const text = quiz(
        `<quiz><question type="truefalse"><name><text>x</text></name><questiontext format="html"><text><![CDATA[${open.repeat(200_000)}]]></text></questiontext><answer fraction="100"><text>true</text></answer></question></quiz>`,
      );
      const started = Date.now();
      readContentFile(text);
      expect(Date.now() - started).toBeLessThan(3000);
    },
  );

  test('when a file holds 10,000 items, then it is refused with the limit', () => {
    const item = '<question type="shortanswer"><name><text>x</text></name></question>';
    expect(() => readContentFile(quiz(`<quiz>${item.repeat(10_000)}</quiz>`))).toThrow(
      expect.objectContaining({
        httpStatus: 413,
        message: expect.stringMatching(/10000 items; at most 1000/),
      }),
    );
  });

  test('when a multiple choice has one answer, then it is left out as the editor would refuse it', () => {
    const one = quiz(
      '<quiz><question type="multichoice"><name><text>Lonely</text></name><single>true</single><answer fraction="100"><text>Only</text></answer></question></quiz>',
    );
    expect(reasons(readContentFile(one))).toEqual([
      ['Lonely', 'a multiple choice question needs at least 2 answers'],
    ]);
  });

  test('when a question text is over the editor limit, then that item is left out with the limit', () => {
    const long = quiz(
      `<quiz><question type="truefalse"><name><text>Long</text></name><questiontext format="html"><text>${'a'.repeat(2001)}</text></questiontext><answer fraction="100"><text>true</text></answer></question></quiz>`,
    );
    expect(reasons(readContentFile(long))).toEqual([['Long', 'its text is longer than 2000 characters']]);
  });
});
