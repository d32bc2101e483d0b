import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Language } from '@readiness/contracts';
import { createLogger } from '@readiness/kit/logger';
import { certificateHtml, NAME_SIZE, type CertificateFields } from '../src/domain/templates/certificate';
import { loadArabicFontFaces, loadFontFaces } from '../src/domain/templates/fonts';
import { chooseBrowser } from '../src/rendering/browser-choice';
import { createCertificatePress, type CertificatePress } from '../src/rendering/certificate-press';
import { createRenderer, type Renderer } from '../src/rendering/renderer';

jest.setTimeout(120_000);

const logger = createLogger({ name: 'certificate-languages-test', level: 'silent' });
const fontFaces = loadFontFaces();
const arabicFontFaces = loadArabicFontFaces();
const design = (language: Language) => ({
  language,
  assessmentTitle: 'Distance Learning Readiness',
  providerName: 'Northfield College',
  signatory: 'Dr. Ada Byron',
  verificationBase: 'https://readiness.example.edu/verify/',
});
const fields = (name: string): CertificateFields => ({
  name,
  percentage: 92,
  awardedAt: new Date('2026-02-24T10:00:00Z'),
  code: 'RDY-7K3M-Q9TX',
});

let renderer: Renderer;
let press: CertificatePress;
let dir: string;
beforeAll(async () => {
  renderer = createRenderer({
    choose: () => chooseBrowser({ bundled: false, bundledDir: '/nonexistent', logger }),
    fontFaces,
    poolSize: 1,
    timeoutMs: 20_000,
    logger,
  });
  await renderer.start();
  press = createCertificatePress({ renderer, fontFaces, arabicFontFaces, logger });
  dir = mkdtempSync(path.join(tmpdir(), 'certificate-languages-'));
});
afterAll(async () => {
  await renderer?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs a poppler tool on the PDF. */
function poppler(tool: string, pdf: Buffer, ...args: string[]): string {
  const file = path.join(dir, 'certificate.pdf');
  writeFileSync(file, pdf);
  return execFileSync(tool, [...args, file, ...(tool === 'pdftotext' ? ['-'] : [])], { encoding: 'utf8' });
}

/**
 * The text in pdftotext's reading order, one line per line of the page: what a reader copies out of it. The
 * embedding marks pdftotext puts around right-to-left runs are left out, and no-break spaces read as spaces.
 */
const lines = (pdf: Buffer) =>
  poppler('pdftotext', pdf)
    .replace(/[\u202a-\u202e]/g, '')
    .replace(/[\u00a0\u202f]/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** Where a word starts across the page, as a share of its width (pdftotext's bounding boxes). */
function across(pdf: Buffer, word: string): number {
  const bbox = poppler('pdftotext', pdf, '-bbox');
  const width = Number(/<page width="([\d.]+)"/.exec(bbox)![1]);
  const at = new RegExp(`<word xMin="([\\d.]+)"[^>]*>${word}</word>`).exec(bbox);
  return Number(at![1]) / width;
}

/** The share of pixels whose grey differs by more than a quarter of the scale, at 50 dpi. */
function difference(a: Buffer, b: Buffer): number {
  const raster = (pdf: Buffer) => {
    const file = path.join(dir, 'page.pdf');
    writeFileSync(file, pdf);
    return execFileSync('pdftoppm', ['-r', '50', '-gray', '-singlefile', file], { maxBuffer: 1 << 26 });
  };
  const one = raster(a);
  const other = raster(b);
  expect(one.length).toBe(other.length);
  let differing = 0;
  for (let i = 0; i < one.length; i += 1) if (Math.abs(one[i]! - other[i]!) > 64) differing += 1;
  return differing / one.length;
}

describe('certificates in languages written left to right', () => {
  test.each([
    [
      'es',
      [
        'Certificado de logro',
        'Por la presente se certifica que',
        'ha superado con éxito Distance Learning Readiness',
        'con una puntuación del 92 %.',
        'Otorgado el 24 de febrero de 2026',
        'Código de verificación',
      ],
    ],
    [
      'fr',
      [
        'Certificat de réussite',
        'Le présent certificat atteste que',
        'a réussi Distance Learning Readiness',
        'avec un résultat de 92 %.',
        'Délivré le 24 février 2026',
        'Code de vérification',
      ],
    ],
    [
      'pt',
      [
        'Certificado de aproveitamento',
        'Certificamos que',
        'concluiu com êxito Distance Learning Readiness',
        'com pontuação de 92%.',
        'Emitido em 24 de fevereiro de 2026',
        'Código de verificação',
      ],
    ],
  ] as const)(
    'when a certificate in %s is printed, then it is printed on its own template, reads in the language with the accented name whole, and looks like the browser’s',
    async (language, sentences) => {
      const before = press.counts();
      const name = 'Zoë Ångström-Núñez';
      const printed = await press.print(design(language), fields(name));
      expect(press.counts()).toMatchObject({ printed: before.printed + 1, templates: before.templates + 1 });
      const text = lines(printed);
      for (const sentence of [...sentences, name]) expect(text).toContain(sentence);
      expect(text.join('\n')).not.toMatch(/Certificate of Achievement|with a score of|Awarded on/);
      const whole = await renderer.render(
        await certificateHtml(design(language), fontFaces, {
          ...fields(name),
          nameSize: press.nameSize(name),
        }),
        { landscape: true },
      );
      expect(difference(printed, whole)).toBeLessThan(0.005);
    },
  );

  test('when English and French certificates of one design are printed, then each language has its template, and English stays English', async () => {
    const calls = { renderMeasured: 0 };
    const counted = createCertificatePress({
      renderer: {
        render: (html, options) => renderer.render(html, options),
        renderMeasured: (html, options) => (
          (calls.renderMeasured += 1),
          renderer.renderMeasured(html, options)
        ),
      },
      fontFaces,
      arabicFontFaces,
      logger,
    });
    const [en, fr, enAgain] = await Promise.all([
      counted.print(design('en'), fields('Ada Lovelace')),
      counted.print(design('fr'), fields('Ada Lovelace')),
      counted.print(design('en'), fields('Grace Hopper')),
    ]);
    expect(calls.renderMeasured).toBe(2);
    expect(counted.counts()).toEqual({ printed: 3, rendered: 0, templates: 2 });
    expect(lines(en)).toEqual(expect.arrayContaining(['Certificate of Achievement', 'with a score of 92%.']));
    expect(lines(enAgain)).toContain('Awarded on 24 February 2026');
    expect(lines(fr)).toContain('Certificat de réussite');
  });
});

describe('a certificate in Arabic', () => {
  let pdf: Buffer;
  beforeAll(async () => {
    const before = press.counts();
    pdf = await press.print(design('ar'), fields('ليلى حسن'));
    // Written right to left, it is rendered whole by the browser, which shapes and orders Arabic.
    expect(press.counts()).toMatchObject({ rendered: before.rendered + 1, printed: before.printed });
  });

  test('when its text is extracted, then the title, the sentences and the student’s Arabic name come out in order, letter for letter', () => {
    const text = lines(pdf);
    for (const line of ['شهادة إنجاز', 'تمنح هذه الشهادة إلى', 'ليلى حسن', 'رمز التحقق', 'نجاح']) {
      expect(text).toContain(line);
    }
    // Lines that mix directions keep their words whole; pdftotext orders their runs as they stand on the page.
    const all = text.join('\n');
    for (const words of [
      'تقديرا لاجتياز',
      'بنجاح',
      'Distance Learning Readiness',
      'بنتيجة',
      '92',
      'منحت بتاريخ',
      'فبراير',
      '2026',
    ]) {
      expect(all).toContain(words);
    }
    expect(all.split('RDY-7K3M-Q9TX')).toHaveLength(3);
    expect(all).not.toMatch(/Certificate of Achievement|This is to certify|Awarded on|PASSED/);
  });

  test('when its fonts are listed, then Arabic is set in the bundled Amiri, embedded with its text map, so the text is selectable', () => {
    const fonts = poppler('pdffonts', pdf)
      .split('\n')
      .filter((line) => line.includes('Amiri'));
    expect(fonts.length).toBeGreaterThan(0);
    // The columns emb, sub and uni: embedded, subset, with a ToUnicode map.
    for (const font of fonts) expect(font).toMatch(/yes\s+yes\s+yes\s+\d+\s+\d+\s*$/);
  });

  test('when its page is laid out, then it is mirrored: the signature stands on the right, the verification on the left', async () => {
    const english = await press.print(design('en'), fields('Grace Hopper'));
    expect(across(english, 'Byron')).toBeLessThan(0.5);
    expect(across(english, 'RDY-7K3M-Q9TX')).toBeGreaterThan(0.5);
    expect(across(pdf, 'Byron')).toBeGreaterThan(0.5);
    expect(across(pdf, 'RDY-7K3M-Q9TX')).toBeLessThan(0.5);
  });

  test('when the name is in Arabic script on a certificate in another language, then the browser renders it whole in Amiri', async () => {
    const before = press.counts();
    const french = await press.print(design('fr'), fields('محمد عبد الله'));
    expect(press.counts().rendered).toBe(before.rendered + 1);
    expect(lines(french)).toEqual(expect.arrayContaining(['محمد عبد الله', 'Certificat de réussite']));
    expect(poppler('pdffonts', french)).toMatch(/Amiri/);
  });

  test('when an Arabic name is long, then it shrinks to fit its line as a Latin one does', () => {
    expect(press.nameSize('ليلى حسن')).toBe(NAME_SIZE.max);
    const long = 'عبد الرحمن بن محمد بن عبد العزيز بن عبد الله بن سعود الأنصاري الخزرجي';
    expect(press.nameSize(long)).toBeLessThan(NAME_SIZE.max);
    expect(press.nameSize(long)).toBeGreaterThanOrEqual(NAME_SIZE.min);
  });
});
