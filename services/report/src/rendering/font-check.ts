import { EMBEDDED_FONT_NAMES, SANS, SERIF } from '../domain/templates/fonts';

/** A PDF whose text uses the product's fonts, and the proof the browser embedded them. */
const TEST_PAGE = `<!doctype html><html><head><meta charset="utf-8"><style>%FONTS%</style></head>
<body><p style="font-family:${SANS}">Readiness test page</p><p style="font-family:${SERIF}">Certificate</p></body></html>`;

export function embeddedFonts(pdf: Buffer): string[] {
  const text = pdf.toString('latin1');
  if (!/\/FontFile[23]?\s/.test(text)) return [];
  return [...text.matchAll(/\/BaseFont\s*\/(?:[A-Z]{6}\+)?([^\s/<>[\]]+)/g)].map((m) => m[1]!);
}

/** A test page whose text uses the product's fonts, with their faces. */
export const fontTestPage = (fontFaces: string) => TEST_PAGE.replace('%FONTS%', fontFaces);

/** Fails unless the PDF embeds every one of the product's fonts (the browser found them all). */
export function checkFonts(pdf: Buffer): void {
  const fonts = embeddedFonts(pdf);
  const missing = EMBEDDED_FONT_NAMES.filter((name) => !fonts.some((font) => font.startsWith(name)));
  if (missing.length > 0) {
    throw new Error(
      `the test PDF does not embed the product's fonts (${missing.join(', ')}); found ${fonts.join(', ') || 'none'}`,
    );
  }
}
