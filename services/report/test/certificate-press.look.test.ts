import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger } from '@readiness/kit/logger';
import jsQR from 'jsqr';
import { PDFDocument } from 'pdf-lib';
import { certificateHtml, NAME_SIZE, type CertificateFields } from '../src/domain/templates/certificate';
import { loadArabicFontFaces, loadFontFaces } from '../src/domain/templates/fonts';
import { chooseBrowser } from '../src/rendering/browser-choice';
import { createCertificatePress, type CertificatePress } from '../src/rendering/certificate-press';
import { createRenderer, type Renderer } from '../src/rendering/renderer';
import { pdfText } from './harness';

jest.setTimeout(120_000);

const logger = createLogger({ name: 'certificate-press-test', level: 'silent' });
const fontFaces = loadFontFaces();
const arabicFontFaces = loadArabicFontFaces();
const design = {
  language: 'en' as const,
  assessmentTitle: 'Distance Learning Readiness',
  providerName: 'Northfield College',
  signatory: 'Dr. Ada Byron',
  verificationBase: 'https://readiness.example.edu/verify/',
};
const fields = (name: string, code = 'RDY-7K3M-Q9TX'): CertificateFields => ({
  name,
  percentage: 92,
  awardedAt: new Date('2026-11-24T10:00:00Z'),
  code,
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
  dir = mkdtempSync(path.join(tmpdir(), 'certificate-press-'));
});
afterAll(async () => {
  await renderer?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The page as a grey-level picture, as poppler's pdftoppm rasterises it. */
function raster(pdf: Buffer, dpi: number): { width: number; height: number; pixels: Buffer } {
  const file = path.join(dir, 'page.pdf');
  writeFileSync(file, pdf);
  const pgm = execFileSync('pdftoppm', ['-r', String(dpi), '-gray', '-singlefile', file], {
    maxBuffer: 1 << 28,
  });
  const [, width, height] = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.toString('latin1', 0, 32))!;
  const w = Number(width);
  const h = Number(height);
  return { width: w, height: h, pixels: pgm.subarray(pgm.length - w * h) };
}

/** The share of pixels whose grey differs by more than a quarter of the scale. */
function difference(a: Buffer, b: Buffer): number {
  const one = raster(a, 50);
  const other = raster(b, 50);
  expect([one.width, one.height]).toEqual([other.width, other.height]);
  let differing = 0;
  for (let i = 0; i < one.pixels.length; i += 1) {
    if (Math.abs(one.pixels[i]! - other.pixels[i]!) > 64) differing += 1;
  }
  return differing / one.pixels.length;
}

/** The whole certificate as the browser renders it, the way every certificate was made before the press. */
const browserCertificate = async (f: CertificateFields) =>
  renderer.render(await certificateHtml(design, fontFaces, { ...f, nameSize: press.nameSize(f.name) }), {
    landscape: true,
  });

const LONGEST =
  'Maximiliana Alexandrina Konstantinopoulou-Vanderbilt de la Cruz y Montenegro-Fitzwilliam Smythe';

describe('certificates printed on a template', () => {
  test.each([
    ['two characters', 'Bo'],
    ['a usual name', 'Grace Hopper'],
    ['accents', 'Zoë Ångström-Núñez Ça Ðào'],
    ['70 characters', 'Alexandra Catherine Wilhelmina Montgomery-Smythe of Northfield Ridge'.padEnd(70, 'x')],
    ['100 characters, the longest a name may be', LONGEST.padEnd(100, 'e')],
  ])(
    'when a certificate for %s is printed, then it looks like the one the browser renders, within a quarter of a percent of its pixels',
    async (_, name) => {
      const printed = await press.print(design, fields(name));
      const rendered = await browserCertificate(fields(name));
      expect(difference(printed, rendered)).toBeLessThan(0.005);
      // Every word is text: the name on one line, the score, the date, the code under its label and in the address.
      const text = pdfText(printed);
      expect(text).toContain(name);
      expect(text).toMatch(/with a score of 92%\./);
      expect(text).toContain('Awarded on 24 November 2026');
      expect(text.split('RDY-7K3M-Q9TX')).toHaveLength(3);
    },
  );

  test('when a name is too long for its line at full size, then it shrinks until it fits, never below the minimum', () => {
    expect(press.nameSize('Grace Hopper')).toBe(NAME_SIZE.max);
    const long = press.nameSize(LONGEST);
    expect(long).toBeLessThan(NAME_SIZE.max);
    expect(long).toBeGreaterThanOrEqual(NAME_SIZE.min);
    expect(press.nameSize(LONGEST.slice(0, 40))).toBeGreaterThan(long);
  });

  test('when the printed certificate is opened, then it is one valid PDF page whose QR code reads the verification address', async () => {
    const printed = await press.print(design, fields('Grace Hopper', 'RDY-2WX9-HJ4P'));
    const doc = await PDFDocument.load(printed);
    expect(doc.getPageCount()).toBe(1);
    const file = path.join(dir, 'check.pdf');
    writeFileSync(file, printed);
    const info = spawnSync('pdfinfo', [file], { encoding: 'utf8' });
    expect(info.status).toBe(0);
    expect(info.stderr).toBe('');
    expect(info.stdout).toMatch(/Pages:\s+1/);
    const fonts = execFileSync('pdffonts', [file], { encoding: 'utf8' });
    expect(fonts).toMatch(/EBGaramond-SemiBold/);
    expect(fonts).toMatch(/Inter-Bold/);

    const page = raster(printed, 200);
    const rgba = new Uint8ClampedArray(page.width * page.height * 4);
    page.pixels.forEach((grey, i) => rgba.set([grey, grey, grey, 255], i * 4));
    expect(jsQR(rgba, page.width, page.height)?.data).toBe(
      'https://readiness.example.edu/verify/RDY-2WX9-HJ4P',
    );
  });

  test('when names hold PDF and HTML syntax, then they are printed as the characters they are', async () => {
    const name = 'O\'Brien (Ada) \\ <b>Tom</b> & "Jo" ) Tj ET';
    expect(pdfText(await press.print(design, fields(name)))).toContain(name);
  });

  test('when a name holds a character the typeface lacks, then the browser renders that certificate whole', async () => {
    const before = press.counts();
    const name = 'Łukasz Żółkiewski Дмитрий';
    const pdf = await press.print(design, fields(name));
    expect(press.counts().rendered).toBe(before.rendered + 1);
    expect(press.counts().printed).toBe(before.printed);
    expect(pdfText(pdf)).toContain('Łukasz Żółkiewski');
  });

  test('when a template comes out without a baseline for its name, then no certificate is printed on it', async () => {
    const broken = createCertificatePress({
      renderer: {
        render: (html, options) => renderer.render(html, options),
        renderMeasured: async (html, options) => {
          const measured = await renderer.renderMeasured(html, options);
          delete measured.slots.name!.baseline;
          return measured;
        },
      },
      fontFaces,
      arabicFontFaces,
      logger,
    });
    await expect(broken.print(design, fields('Grace Hopper'))).rejects.toThrow(/name slot has no baseline/);
    expect(broken.counts().printed).toBe(0);
  });

  test('when many certificates of one design are printed at once, then the browser renders its template once', async () => {
    const calls = { render: 0, renderMeasured: 0 };
    const counted = createCertificatePress({
      renderer: {
        render: (html, options) => ((calls.render += 1), renderer.render(html, options)),
        renderMeasured: (html, options) => (
          (calls.renderMeasured += 1),
          renderer.renderMeasured(html, options)
        ),
      },
      fontFaces,
      arabicFontFaces,
      logger,
    });
    const other = { ...design, assessmentTitle: 'Online Study Skills' };
    const printed = await Promise.all(
      ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara'].map((name) => counted.print(other, fields(name))),
    );
    expect(calls).toEqual({ render: 0, renderMeasured: 1 });
    expect(counted.counts()).toEqual({ printed: 5, rendered: 0, templates: 1 });
    expect(new Set(printed.map((pdf) => pdfText(pdf).match(/This is to certify that\s+(\S+)/)?.[1]))).toEqual(
      new Set(['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara']),
    );
    expect(pdfText(printed[0]!)).toContain('Online Study Skills');
  });
});

describe('the verification address', () => {
  test.each([
    'https://readiness.example.edu',
    'https://readiness.northfield.edu',
    'https://assess.northfield-community-college.example.edu',
    'https://readiness-assessment.distance-learning.northfield-community-college.example.edu',
  ])(
    'when the certificate of a product at %s is printed, then its address wraps before the code, never inside it',
    async (origin) => {
      const before = press.counts();
      const pdf = await press.print(
        { ...design, verificationBase: `${origin}/verify/` },
        fields('Grace Hopper'),
      );
      expect(press.counts().printed).toBe(before.printed + 1);
      const text = pdfText(pdf);
      // Whole under "Verification code" and whole at the end of the address: a code cut by a line break would be
      // found once only.
      expect(text.split('RDY-7K3M-Q9TX')).toHaveLength(3);
      expect(text).toContain('verify/');
    },
  );
});
