import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';

interface FontFile {
  family: string;
  /** `@fontsource/<package>/files/<file>` */
  pkg: string;
  file: string;
  weight: number;
  style: 'normal' | 'italic';
}

/** The product's own typefaces: Inter for text, EB Garamond for the certificate's headings. Latin subsets. */
const FONTS: FontFile[] = [
  { family: 'Inter', pkg: 'inter', file: 'inter-latin-400-normal.woff2', weight: 400, style: 'normal' },
  { family: 'Inter', pkg: 'inter', file: 'inter-latin-600-normal.woff2', weight: 600, style: 'normal' },
  { family: 'Inter', pkg: 'inter', file: 'inter-latin-700-normal.woff2', weight: 700, style: 'normal' },
  {
    family: 'EB Garamond',
    pkg: 'eb-garamond',
    file: 'eb-garamond-latin-400-normal.woff2',
    weight: 400,
    style: 'normal',
  },
  {
    family: 'EB Garamond',
    pkg: 'eb-garamond',
    file: 'eb-garamond-latin-400-italic.woff2',
    weight: 400,
    style: 'italic',
  },
  {
    family: 'EB Garamond',
    pkg: 'eb-garamond',
    file: 'eb-garamond-latin-600-normal.woff2',
    weight: 600,
    style: 'normal',
  },
];

/** The font families the templates use, as a CSS stack with a generic fallback; Arabic script in Amiri. */
export const SANS = `'Inter', 'Amiri', sans-serif`;
export const SERIF = `'EB Garamond', 'Amiri', serif`;

/**
 * `@font-face` rules with every font inlined as a data: URI, read once at start: a PDF looks the same whichever
 * Chromium renders it, needs no request to leave the page, and never falls back to a missing system font.
 */
export function loadFontFaces(): string {
  return FONTS.map((font) => {
    const data = readFileSync(fontFile(font)).toString('base64');
    return `@font-face{font-family:'${font.family}';font-style:${font.style};font-weight:${font.weight};font-display:block;src:url(data:font/woff2;base64,${data}) format('woff2');}`;
  }).join('\n');
}

/**
 * Amiri, a Naskh typeface, for Arabic script: on an Arabic certificate, and for a name in Arabic on any page. Its
 * letters are whole glyphs with their dots, which keeps the PDF's text layer readable (Noto's Arabic fonts build
 * letters from a skeleton and dot marks, and pdftotext cuts their words apart). Limited to Arabic by
 * `unicode-range`, so Latin text stays in Inter and EB Garamond, and a page without Arabic never loads it.
 */
const ARABIC_FONTS: FontFile[] = [
  { family: 'Amiri', pkg: 'amiri', file: 'amiri-arabic-400-normal.woff2', weight: 400, style: 'normal' },
  { family: 'Amiri', pkg: 'amiri', file: 'amiri-arabic-700-normal.woff2', weight: 700, style: 'normal' },
];

/**
 * How much larger Amiri is set than the size asked for (its letters are small for their size beside Inter and EB
 * Garamond): the faces' `size-adjust`, and the factor a name's Arabic width is measured with.
 */
export const ARABIC_SIZE_ADJUST = 1.2;

/** Characters of Arabic script: a text with one needs the Arabic faces. */
export const ARABIC_SCRIPT = /\p{Script=Arabic}/u;

/** The Arabic faces' `@font-face` rules, inlined as `loadFontFaces` inlines the others. */
export function loadArabicFontFaces(): string {
  const ranges = (
    JSON.parse(readFileSync(require.resolve('@fontsource/amiri/unicode.json'), 'utf8')) as {
      arabic: string;
    }
  ).arabic;
  return ARABIC_FONTS.map((font) => {
    const data = readFileSync(fontFile(font)).toString('base64');
    return `@font-face{font-family:'${font.family}';font-style:${font.style};font-weight:${font.weight};font-display:block;src:url(data:font/woff2;base64,${data}) format('woff2');unicode-range:${ranges};size-adjust:${ARABIC_SIZE_ADJUST * 100}%;}`;
  }).join('\n');
}

/** Amiri Bold as a TrueType file, to measure a name in Arabic as the certificate sets it. */
export const loadArabicNameFont = (): Buffer =>
  woffToSfnt(readFileSync(fontFile({ pkg: 'amiri', file: 'amiri-arabic-700-normal.woff' })));

/** The families a rendered PDF must embed (their PostScript names start so). */
export const EMBEDDED_FONT_NAMES = ['Inter', 'EBGaramond'];

const fontFile = (font: Pick<FontFile, 'pkg' | 'file'>) =>
  require.resolve(`@fontsource/${font.pkg}/files/${font.file}`);

/** The same typefaces as plain TrueType files, for writing text into a PDF: EB Garamond 400 and 600, Inter 400, 600, 700. */
export type PressFont = 'serif' | 'serifBold' | 'sans' | 'sansSemiBold' | 'sansBold';

const PRESS_FONTS: Record<PressFont, FontFile> = {
  serif: FONTS[3]!,
  serifBold: FONTS[5]!,
  sans: FONTS[0]!,
  sansSemiBold: FONTS[1]!,
  sansBold: FONTS[2]!,
};

/** Each press font as a TrueType file (unpacked from the package's WOFF once, at start). */
export function loadPressFonts(): Record<PressFont, Buffer> {
  const entries = Object.entries(PRESS_FONTS).map(([role, font]) => {
    const woff = readFileSync(fontFile({ pkg: font.pkg, file: font.file.replace(/\.woff2$/, '.woff') }));
    return [role, woffToSfnt(woff)] as const;
  });
  return Object.fromEntries(entries) as Record<PressFont, Buffer>;
}

/**
 * A WOFF 1.0 font back to the TrueType (sfnt) file it packs: the same tables, each inflated with zlib when it was
 * compressed, in a table directory of the sfnt's own layout (W3C WOFF 1.0, section 5).
 */
export function woffToSfnt(woff: Buffer): Buffer {
  if (woff.toString('latin1', 0, 4) !== 'wOFF') throw new Error('not a WOFF 1.0 font');
  const flavor = woff.readUInt32BE(4);
  const count = woff.readUInt16BE(12);
  let log = 0;
  while (2 << log <= count) log += 1;
  const searchRange = (1 << log) * 16;
  const directory = Buffer.alloc(12 + 16 * count);
  directory.writeUInt32BE(flavor, 0);
  directory.writeUInt16BE(count, 4);
  directory.writeUInt16BE(searchRange, 6);
  directory.writeUInt16BE(log, 8);
  directory.writeUInt16BE(count * 16 - searchRange, 10);
  const parts: Buffer[] = [directory];
  let offset = directory.length;
  for (let i = 0; i < count; i += 1) {
    const entry = 44 + i * 20;
    const tableOffset = woff.readUInt32BE(entry + 4);
    const compressedLength = woff.readUInt32BE(entry + 8);
    const length = woff.readUInt32BE(entry + 12);
    const packed = woff.subarray(tableOffset, tableOffset + compressedLength);
    const table = compressedLength < length ? inflateSync(packed) : packed;
    if (table.length !== length) throw new Error('a WOFF table does not unpack to its declared length');
    const at = 12 + 16 * i;
    directory.writeUInt32BE(woff.readUInt32BE(entry), at);
    directory.writeUInt32BE(woff.readUInt32BE(entry + 16), at + 4);
    directory.writeUInt32BE(offset, at + 8);
    directory.writeUInt32BE(length, at + 12);
    const padding = (4 - (length % 4)) % 4;
    parts.push(table, Buffer.alloc(padding));
    offset += length + padding;
  }
  return Buffer.concat(parts);
}
