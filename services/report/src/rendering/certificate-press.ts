import { deflateSync } from 'node:zlib';
import fontkit, { type Font } from '@pdf-lib/fontkit';
import { LANGUAGES } from '@readiness/contracts';
import type { Logger } from '@readiness/kit/logger';
import { PDFDocument, PDFName, type PDFRef } from 'pdf-lib';
import QRCode from 'qrcode';
import {
  COLOURS,
  NAME_SIZE,
  NAME_WIDTH_MM,
  awardedText,
  certificateHtml,
  scoreValues,
  type CertificateDesign,
  type CertificateFields,
  SLOTS,
  type Slot,
} from '../domain/templates/certificate';
import {
  ARABIC_SCRIPT,
  ARABIC_SIZE_ADJUST,
  loadArabicNameFont,
  loadPressFonts,
  type PressFont,
} from '../domain/templates/fonts';
import { certificateTranslator } from '../domain/templates/messages';
import type { LaidOutBox, MeasuredPdf, Renderer } from './renderer';

/** What the press needs of the browser: a whole certificate, or a template with its slots laid out. */
export type PressRenderer = Pick<Renderer, 'render' | 'renderMeasured'>;

/**
 * Certificates without a browser per certificate. Chromium renders each design once (assessment title, provider,
 * signatory, verification address) into a template PDF, leaving empty slots for what is the student's own; each
 * certificate is that template with the name, score, date, code and QR code written into its slots, appended as
 * an incremental update (ISO 32000-1 §7.5.6) that replaces one empty content stream. The fonts are the same files
 * the browser uses, embedded in the template as subsets of what each may have to write (every Latin character for
 * the name, figures and capitals for the code), with their ToUnicode maps, so the text stays selectable and
 * searchable.
 *
 * Each design has a template per language: the words around the student's own are the template's, and the score
 * and date are written in the language's words. A certificate written right to left (Arabic) is rendered whole by
 * the browser, which shapes and orders its text; pdf-lib does neither reliably. So is a certificate with a
 * character the template's fonts lack (a name in another script), or a code of another form, as every certificate
 * was before.
 */
export interface CertificatePress {
  print(design: CertificateDesign, fields: CertificateFields): Promise<Buffer>;
  /** The name's size in points: 38, or smaller until it fits its line. */
  nameSize(name: string): number;
  /** Certificates printed on a template, and rendered whole by the browser, since start. */
  counts(): { printed: number; rendered: number; templates: number };
}

export interface PressOptions {
  renderer: PressRenderer;
  fontFaces: string;
  /** The Arabic faces, added to a certificate in Arabic or with a name in Arabic script. */
  arabicFontFaces: string;
  logger: Logger;
  /** Designs whose templates are kept in memory (the least recently used goes first). */
  templates?: number;
}

/** Codes as the results service makes them (`RDY-7K3F-92QX`): no longer than the placeholder they replace. */
const CODE_PATTERN = /^[0-9A-Z-]{1,13}$/;
const PT_PER_PX = 0.75;
const PT_PER_MM = 72 / 25.4;

/**
 * Sequences the fonts set with other glyphs than their characters' own, as the browser does by default: EB
 * Garamond's ligatures, Inter's hyphen raised between capitals and figures. Their glyphs join the template's fonts
 * with the characters they stand for, so the text layer reads them right.
 */
const SEQUENCES = ['ff', 'fi', 'fl', 'ffi', 'ffl', 'A-A', '0-0', 'A-0', '0-A'];

const CODE_CHARACTERS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-';
/** Words of Arabic script and the spaces between them. */
const ARABIC_RUN = /(\p{Script=Arabic}+(?:\s+\p{Script=Arabic}+)*)/u;

/** The languages printed on templates: those written left to right. */
const PRINTED = LANGUAGES.map(certificateTranslator).filter((t) => t.dir === 'ltr');
const DIGITS = '0123456789';
/** Each language's score line: the words in the regular face, the percentage in the semibold. */
const SCORE_RUNS = PRINTED.flatMap((t) => t.runs('certificate.score', scoreValues(t, 100)));

/** What each font may have to write: its whole character set for the name, a few characters for the rest. */
const REPERTOIRES: Record<PressFont, string | 'all'> = {
  serifBold: 'all',
  serif: [
    ...PRINTED.flatMap((t) =>
      Array.from({ length: 12 }, (_, m) => awardedText(t, new Date(Date.UTC(2026, m, 1)))),
    ),
    DIGITS,
  ].join(' '),
  sans: `${SCORE_RUNS.filter((run) => !run.strong)
    .map((run) => run.text)
    .join('')} ${CODE_CHARACTERS}`,
  sansSemiBold: `${DIGITS}${SCORE_RUNS.filter((run) => run.strong)
    .map((run) => run.text)
    .join('')}`,
  sansBold: CODE_CHARACTERS,
};

const GREY = '#5b6475';

interface FontFace {
  role: PressFont;
  /** The font's name in the page's resources. */
  key: string;
  font: Font;
  /** The characters and sequences the font may have to write, apart, as one text. */
  repertoire: string;
  /** The glyphs of the repertoire, in its layout's order: the only ones a certificate may use. */
  glyphs: number[];
  known: Set<number>;
}

interface Template {
  bytes: Buffer;
  /** Each font's glyph ids, as the font embedded in the template numbers them (a subset renumbers its glyphs). */
  ids: Record<PressFont, Map<number, number>>;
  /** The empty content stream each certificate replaces. */
  stream: number;
  trailer: string;
  startXref: number;
  /** The page's size, and its slots in PDF points from the bottom left. */
  slots: Record<Slot, LaidOutBox>;
}

/** The student's own texts, set in the template's fonts. */
interface StudentTexts {
  name: Measured;
  /** The score's words and percentage, run by run. */
  score: Measured[];
  awarded: Measured;
  code: Measured;
  urlCode: Measured;
}

export function createCertificatePress(options: PressOptions): CertificatePress {
  return new TemplatePress(options);
}

/**
 * The press's state: the fonts, read once at start; each design's template (a promise, shared by the certificates
 * that wait for it), the least recently used first; the texts every certificate repeats, set once; its counts.
 */
class TemplatePress implements CertificatePress {
  private readonly files = loadPressFonts();
  private readonly faces: Record<PressFont, FontFace>;
  /** pdf-lib reads a font each time it embeds one: it gets the one already read. */
  private readonly reuse: { create(data: Uint8Array): Font };
  private readonly arabicName = fontkit.create(loadArabicNameFont());
  private readonly cache = new Map<string, Promise<Template>>();
  private readonly limit: number;
  private readonly repeated = new Map<string, Measured>();
  private printed = 0;
  private rendered = 0;

  constructor(private readonly options: PressOptions) {
    const read = new Map(Object.values(this.files).map((ttf) => [ttf, fontkit.create(ttf)]));
    this.faces = pressFaces(this.files, read);
    this.reuse = { create: (data: Uint8Array) => read.get(data as Buffer) ?? fontkit.create(data) };
    this.limit = options.templates ?? 16;
  }

  async print(design: CertificateDesign, fields: CertificateFields): Promise<Buffer> {
    const onTemplate = CODE_PATTERN.test(fields.code) && certificateTranslator(design.language).dir === 'ltr';
    const pdf = onTemplate ? await this.printOnTemplate(design, fields) : undefined;
    if (pdf) {
      this.printed += 1;
      return pdf;
    }
    this.options.logger.debug(
      { code: fields.code, language: design.language },
      'this certificate is written right to left, or a character of it is not in its template: the browser renders it whole',
    );
    const arabic = design.language === 'ar' || ARABIC_SCRIPT.test(fields.name);
    const { fontFaces, arabicFontFaces } = this.options;
    const faces = arabic ? `${fontFaces}\n${arabicFontFaces}` : fontFaces;
    const html = await certificateHtml(design, faces, { ...fields, nameSize: this.nameSize(fields.name) });
    const whole = await this.options.renderer.render(html, { landscape: true });
    this.rendered += 1;
    return whole;
  }

  nameSize(name: string): number {
    return fittingSize(this.nameWidth(name));
  }

  counts(): { printed: number; rendered: number; templates: number } {
    return { printed: this.printed, rendered: this.rendered, templates: this.cache.size };
  }

  /** A name's width at the largest size: its runs of Arabic script in Amiri Bold, as the browser sets them. */
  private nameWidth(name: string): number {
    const { arabicName } = this;
    return name
      .split(ARABIC_RUN)
      .filter(Boolean)
      .reduce(
        (width, run) =>
          width +
          (ARABIC_SCRIPT.test(run)
            ? (arabicName.layout(run).advanceWidth * NAME_SIZE.max * ARABIC_SIZE_ADJUST) /
              arabicName.unitsPerEm
            : measure(this.faces.serifBold, run, NAME_SIZE.max).width),
        0,
      );
  }

  /** The texts every certificate repeats (the score's words, a percentage, a date) are set once. */
  private measureRepeated(face: FontFace, s: string, size: number): Measured {
    const key = `${face.role} ${size} ${s}`;
    let m = this.repeated.get(key);
    if (!m) {
      if (this.repeated.size >= 2_000) this.repeated.clear();
      m = measure(face, s, size);
      this.repeated.set(key, m);
    }
    return m;
  }

  private async printOnTemplate(
    design: CertificateDesign,
    fields: CertificateFields,
  ): Promise<Buffer | undefined> {
    // Whether the fonts can write the student's texts is known before the template is needed.
    const texts = this.setTexts(design, fields);
    if (!texts) return undefined;
    const template = await this.templateOf(design);
    return withStudentLayer(template, studentLayer(template, design.verificationBase + fields.code, texts));
  }

  /** The student's texts set in the template's fonts; undefined when one needs a glyph those fonts lack. */
  private setTexts(design: CertificateDesign, fields: CertificateFields): StudentTexts | undefined {
    const { faces } = this;
    const t = certificateTranslator(design.language);
    const largest = measure(faces.serifBold, fields.name, NAME_SIZE.max);
    const size = fittingSize(largest.width);
    const texts = {
      name: { ...largest, size, width: (largest.width * size) / NAME_SIZE.max },
      score: t
        .runs('certificate.score', scoreValues(t, fields.percentage))
        .map((run) => this.measureRepeated(run.strong ? faces.sansSemiBold : faces.sans, run.text, 13)),
      awarded: this.measureRepeated(faces.serif, awardedText(t, fields.awardedAt), 14),
      code: measure(faces.sansBold, fields.code, 11),
      urlCode: measure(faces.sans, fields.code, 8.5),
    };
    const all = [texts.name, ...texts.score, texts.awarded, texts.code, texts.urlCode];
    return all.every((m) => m.known) ? texts : undefined;
  }

  /** The design's template: made once, kept while it is among the `limit` most recently used. */
  private templateOf(design: CertificateDesign): Promise<Template> {
    const { cache } = this;
    const key = JSON.stringify([
      design.language,
      design.assessmentTitle,
      design.providerName,
      design.signatory,
      design.verificationBase,
    ]);
    let template = cache.get(key);
    if (template) {
      cache.delete(key);
    } else {
      template = this.buildTemplate(design).catch((err: unknown) => {
        cache.delete(key);
        throw err;
      });
    }
    cache.set(key, template);
    while (cache.size > this.limit) cache.delete(cache.keys().next().value!);
    return template;
  }

  /**
   * The design rendered by the browser with empty slots, its fonts embedded as subsets of what they may write, and
   * one empty content stream after the browser's drawing for each certificate to replace.
   */
  private async buildTemplate(design: CertificateDesign): Promise<Template> {
    const html = await certificateHtml(design, this.options.fontFaces);
    const { pdf, slots } = await this.options.renderer.renderMeasured(html, { landscape: true });
    const doc = await PDFDocument.load(pdf, { updateMetadata: false });
    doc.registerFontkit(this.reuse);
    const page = doc.getPage(0);
    const mediaBox = page.getMediaBox();
    const ids = {} as Template['ids'];
    for (const face of Object.values(this.faces)) {
      // pdf-lib numbers a subset's glyphs as they are first written: the repertoire, written once, tells how.
      const embedded = await doc.embedFont(this.files[face.role], { subset: true });
      const hex = embedded.encodeText(face.repertoire).toString().slice(1, -1);
      ids[face.role] = new Map(face.glyphs.map((id, i) => [id, parseInt(hex.slice(i * 4, i * 4 + 4), 16)]));
      page.node.setFontDictionary(PDFName.of(face.key), embedded.ref);
    }
    // The browser's drawing is closed in q … Q, so the student's text starts from the page's own coordinates.
    page.node.wrapContentStreams(
      doc.context.getPushGraphicsStateContentStream(),
      doc.context.getPopGraphicsStateContentStream(),
    );
    const stream = doc.context.register(doc.context.stream(''));
    page.node.addContentStream(stream);
    const bytes = Buffer.from(await doc.save({ useObjectStreams: false, updateFieldAppearances: false }));
    const { trailer, startXref } = trailerOf(doc, bytes);
    const placed = placeSlots(slots, mediaBox);
    this.options.logger.info(
      { assessmentTitle: design.assessmentTitle, language: design.language },
      'certificate template prepared',
    );
    return { bytes, ids, stream: stream.objectNumber, trailer, startXref, slots: placed };
  }
}

/** Each press font read, with what it may have to write and the glyphs that takes. */
function pressFaces(files: Record<PressFont, Buffer>, read: Map<Buffer, Font>): Record<PressFont, FontFace> {
  return Object.fromEntries(
    (Object.entries(files) as Array<[PressFont, Buffer]>).map(([role, ttf]) => {
      const font = read.get(ttf)!;
      const wanted = REPERTOIRES[role];
      const characters =
        wanted === 'all'
          ? font.characterSet.filter((c) => c > 0x20).map((c) => String.fromCodePoint(c))
          : [...new Set(wanted.replace(/ /g, ''))];
      const repertoire = [...characters, ...SEQUENCES].join(' ');
      const glyphs = font.layout(repertoire).glyphs.map((g) => g.id);
      return [
        role,
        {
          role,
          key: `Rdy${role}`,
          font,
          repertoire,
          glyphs,
          known: new Set(glyphs.filter((id) => id !== 0)),
        },
      ];
    }),
  ) as Record<PressFont, FontFace>;
}

/** The size that fits a name as wide as `width` points at the largest size (one decimal, rounded down). */
const fittingSize = (width: number) =>
  Math.max(
    NAME_SIZE.min,
    Math.min(NAME_SIZE.max, Math.floor((NAME_SIZE.max * NAME_WIDTH_MM * PT_PER_MM * 10) / width) / 10),
  );

/** The saved template's cross-reference table, and the trailer each certificate's update repeats after it. */
function trailerOf(doc: PDFDocument, bytes: Buffer): Pick<Template, 'trailer' | 'startXref'> {
  const startXref = Number(
    /startxref\s+(\d+)\s+%%EOF\s*$/.exec(bytes.toString('latin1', bytes.length - 64))?.[1],
  );
  if (!Number.isFinite(startXref)) throw new Error('the template PDF has no cross-reference table to extend');
  const info = doc.context.trailerInfo;
  const ref = (r: unknown) => (r as PDFRef).toString();
  const trailer = [
    `/Size ${doc.context.largestObjectNumber + 1}`,
    `/Root ${ref(info.Root)}`,
    info.Info ? `/Info ${ref(info.Info)}` : '',
    info.ID ? `/ID ${String(info.ID)}` : '',
    `/Prev ${startXref}`,
  ].join(' ');
  return { trailer, startXref };
}

/** The slots the browser laid out (CSS pixels from the top left), in PDF points from the page's bottom left. */
function placeSlots(
  slots: MeasuredPdf['slots'],
  { x: left, y: bottom, height }: { x: number; y: number; height: number },
): Record<Slot, LaidOutBox> {
  const toPdf = (box: LaidOutBox): LaidOutBox => ({
    x: left + box.x * PT_PER_PX,
    y: bottom + height - (box.y + box.height) * PT_PER_PX,
    width: box.width * PT_PER_PX,
    height: box.height * PT_PER_PX,
    baseline: box.baseline === undefined ? undefined : bottom + height - box.baseline * PT_PER_PX,
  });
  const placed = {} as Record<Slot, LaidOutBox>;
  for (const slot of SLOTS) {
    const box = slots[slot];
    if (!box) throw new Error(`the certificate template has no ${slot} slot`);
    // Text is written on its slot's baseline: a text slot without one would print at a made-up height.
    if (slot !== 'qr' && box.baseline === undefined)
      throw new Error(`the certificate template's ${slot} slot has no baseline (.strut)`);
    placed[slot] = toPdf(box);
  }
  return placed;
}

/** The student's own text and QR code, as the drawing operators of one content stream. */
function studentLayer(
  template: Template,
  url: string,
  { name, score, awarded, code, urlCode }: StudentTexts,
): string {
  const { slots } = template;
  const centre = (box: LaidOutBox) => box.x + box.width / 2;
  const write = (m: Measured, x: number, baseline: number, colour: string, spacing = 0) =>
    `BT /${m.face.key} ${f(m.size)} Tf ${f(spacing)} Tc ${rgb(colour)} rg ${f(x)} ${f(baseline)} Td ` +
    `[${tj(m, template.ids[m.face.role])}] TJ ET`;
  const nameX = centre(slots.name) - name.width / 2;
  // The line under the name: as long as the name and 6 mm either side, at the bottom of the name's box.
  const pad = 6 * PT_PER_MM;
  const ops = [
    write(name, nameX, slots.name.baseline!, COLOURS.INK),
    `${rgb(COLOURS.RULE)} rg ${f(nameX - pad)} ${f(slots.name.y)} ${f(name.width + 2 * pad)} ${f(0.3 * PT_PER_MM)} re f`,
  ];
  let x = centre(slots.score) - score.reduce((sum, m) => sum + m.width, 0) / 2;
  for (const m of score) {
    ops.push(write(m, x, slots.score.baseline!, COLOURS.INK));
    x += m.width;
  }
  ops.push(write(awarded, centre(slots.awarded) - awarded.width / 2, slots.awarded.baseline!, COLOURS.INK));
  // letter-spacing: 0.08em, as the browser prints it (after every character).
  ops.push(write(code, slots.code.x, slots.code.baseline!, COLOURS.INK, 0.08 * code.size));
  ops.push(write(urlCode, slots['url-code'].x, slots['url-code'].baseline!, GREY));
  ops.push(qrOperators(url, slots.qr));
  return ops.join('\n');
}

/** The template with `layer` as its empty stream's content: an incremental update of one object. */
function withStudentLayer(template: Template, layer: string): Buffer {
  const content = deflateSync(Buffer.from(layer, 'latin1'));
  const head = template.bytes.at(-1) === 0x0a ? '' : '\n';
  const objectAt = template.bytes.length + head.length;
  const object = Buffer.concat([
    Buffer.from(
      `${head}${template.stream} 0 obj\n<< /Length ${content.length} /Filter /FlateDecode >>\nstream\n`,
      'latin1',
    ),
    content,
    Buffer.from('\nendstream\nendobj\n', 'latin1'),
  ]);
  const xrefAt = template.bytes.length + object.length;
  const xref = Buffer.from(
    `xref\n${template.stream} 1\n${String(objectAt).padStart(10, '0')} 00000 n \n` +
      `trailer\n<< ${template.trailer} >>\nstartxref\n${xrefAt}\n%%EOF\n`,
    'latin1',
  );
  return Buffer.concat([template.bytes, object, xref]);
}

interface Measured {
  face: FontFace;
  size: number;
  /** The glyphs (the font's own ids), and after each its kerning in thousandths of an em (the TJ operator's). */
  glyphs: number[];
  kerning: number[];
  /** Width in points at `size`. */
  width: number;
  /** Every glyph is one the template's font carries. */
  known: boolean;
}

/** Glyphs, kerning and width of `s` set in `face` at `size` points, as the browser sets it where it can. */
function measure(face: FontFace, s: string, size: number): Measured {
  const { font } = face;
  const run = font.layout(s);
  // The browser's glyphs and kerning, when the template's fonts carry them all; else each character's own glyph.
  const shaped =
    run.glyphs.every((g) => face.known.has(g.id)) && run.positions.every((p) => !p.xOffset && !p.yOffset);
  const glyphs = shaped ? run.glyphs : [...s].flatMap((c) => font.layout(c).glyphs);
  let units = 0;
  const kerning = glyphs.map((glyph, i) => {
    const advance = shaped ? run.positions[i]!.xAdvance : glyph.advanceWidth;
    units += advance;
    return ((glyph.advanceWidth - advance) * 1000) / font.unitsPerEm;
  });
  return {
    face,
    size,
    glyphs: glyphs.map((g) => g.id),
    kerning,
    width: (units * size) / font.unitsPerEm,
    known: glyphs.every((g) => face.known.has(g.id)),
  };
}

/** The TJ operator's array: each glyph by its id in the embedded font, with the kerning after it. */
function tj(m: Measured, ids: Map<number, number>): string {
  return m.glyphs
    .map((id, i) => {
      const glyph = `<${ids.get(id)!.toString(16).padStart(4, '0')}>`;
      return m.kerning[i] ? `${glyph}${f(m.kerning[i]!)}` : glyph;
    })
    .join('');
}

/** The QR code of the verification address, as the browser draws its SVG: a white square, dark modules in runs. */
function qrOperators(url: string, box: LaidOutBox): string {
  const qr = QRCode.create(url, { errorCorrectionLevel: 'M' });
  const n = qr.modules.size;
  const cell = box.width / n;
  const ops = [
    `1 1 1 rg ${f(box.x)} ${f(box.y)} ${f(box.width)} ${f(box.height)} re f`,
    `${rgb(COLOURS.INK)} rg`,
  ];
  for (let row = 0; row < n; row += 1) {
    let col = 0;
    while (col < n) {
      if (!qr.modules.get(row, col)) {
        col += 1;
        continue;
      }
      const start = col;
      while (col < n && qr.modules.get(row, col)) col += 1;
      const y = box.y + box.height - (row + 1) * cell;
      ops.push(`${f(box.x + start * cell)} ${f(y)} ${f((col - start) * cell)} ${f(cell)} re`);
    }
  }
  ops.push('f');
  return ops.join('\n');
}

const f = (n: number) => (Math.round(n * 1000) / 1000).toString();

function rgb(hex: string): string {
  const v = parseInt(hex.slice(1), 16);
  return [(v >> 16) & 255, (v >> 8) & 255, v & 255].map((c) => f(c / 255)).join(' ');
}
