import { readFileSync } from 'node:fs';

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

/** The font families the templates use, as a CSS stack with a generic fallback. */
export const SANS = `'Inter', sans-serif`;
export const SERIF = `'EB Garamond', serif`;

/**
 * `@font-face` rules with every font inlined as a data: URI, read once at start: a PDF looks the same whichever
 * Chromium renders it, needs no request to leave the page, and never falls back to a missing system font.
 */
export function loadFontFaces(): string {
  return FONTS.map((font) => {
    const file = require.resolve(`@fontsource/${font.pkg}/files/${font.file}`);
    const data = readFileSync(file).toString('base64');
    return `@font-face{font-family:'${font.family}';font-style:${font.style};font-weight:${font.weight};font-display:block;src:url(data:font/woff2;base64,${data}) format('woff2');}`;
  }).join('\n');
}

/** The families a rendered PDF must embed (their PostScript names start so). */
export const EMBEDDED_FONT_NAMES = ['Inter', 'EBGaramond'];
