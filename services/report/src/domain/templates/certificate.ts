import type { Language } from '@readiness/contracts';
import QRCode from 'qrcode';
import { SANS, SERIF } from './fonts';
import { html, isolatedName, trusted, type SafeHtml } from './html';
import { certificateTranslator, type CertificateTranslator } from './messages';
import { fillSlot, loadStylesheet } from './stylesheets';

/**
 * What every certificate of one assessment version, one provider and one language shares: the design of its
 * template.
 */
export interface CertificateDesign {
  /** The language the certificate is written in (its result's). */
  language: Language;
  assessmentTitle: string;
  providerName: string;
  signatory: string;
  /** The verification address without the code: `https://readiness.example.edu/verify/`. */
  verificationBase: string;
}

/** What is one student's own on a certificate. */
export interface CertificateFields {
  name: string;
  percentage: number;
  awardedAt: Date;
  code: string;
}

export type CertificateContent = CertificateDesign & CertificateFields;

/** The slots a template leaves empty for the student's own text, found by `[data-slot]` after layout. */
export const SLOTS = ['name', 'score', 'awarded', 'qr', 'code', 'url-code'] as const;
export type Slot = (typeof SLOTS)[number];

/** Where the code is printed until the student's is written in: as wide as the widest real code. */
export const CODE_PLACEHOLDER = 'RDY-MMMM-MMMM';

/** The name's size on the certificate (pt); a longer name shrinks to fit on its one line, down to the minimum. */
export const NAME_SIZE = { max: 38, min: 12 } as const;
/** The width the name may take (mm): the line under it adds 6 mm either side. */
export const NAME_WIDTH_MM = 208;

export const COLOURS = { INK: '#1f2a44', NAVY: '#1e3a8a', GOLD: '#b08d3c', RULE: '#c9c2b0' } as const;

const { INK, NAVY, GOLD } = COLOURS;

const LONG_DATE = { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' } as const;

/**
 * The score's message, its percentage written the language's way (`92%`, `92 %`, `89,5 %`), with the decimal
 * `shownPercentage` gives it, if any.
 */
export const scoreValues = (t: CertificateTranslator, percentage: number) => ({
  score: t.number(percentage / 100, { style: 'percent', maximumFractionDigits: 1 }),
});

/** `Awarded on 24 November 2026`, `Délivré le 24 novembre 2026`: the date in UTC, the same wherever it runs. */
export const awardedText = (t: CertificateTranslator, date: Date) =>
  t.text('certificate.awarded', { date: t.date(date, LONG_DATE) });

/**
 * A seal drawn in SVG: no image file to load. A word longer than PASSED is pressed to the width PASSED takes, so it
 * stays inside the inner ring; Arabic letters join, so they are not spaced apart.
 */
function seal(t: CertificateTranslator) {
  const word = t.text('certificate.seal');
  const fit = [...word].length > 6 ? ' textLength="56" lengthAdjust="spacingAndGlyphs"' : '';
  const [spacing, size] = t.dir === 'rtl' ? ['0', '13'] : ['2', '10'];
  return html`<svg viewBox="0 0 120 120" width="34mm" height="34mm" aria-hidden="true">
    <g fill="none" stroke="${GOLD}">
      <circle cx="60" cy="60" r="56" stroke-width="3" />
      <circle cx="60" cy="60" r="49" stroke-width="1" />
      <circle cx="60" cy="60" r="44" stroke-width="0.6" stroke-dasharray="2 2.4" />
    </g>
    <path
      d="M60 30 l7.6 15.4 17 2.5 -12.3 12 2.9 16.9 -15.2 -8 -15.2 8 2.9 -16.9 -12.3 -12 17 -2.5z"
      fill="${GOLD}"
      opacity="0.9"
    />
    <text
      x="60"
      y="94"
      text-anchor="middle"
      font-family="Inter, Amiri"
      font-weight="700"
      font-size="${size}"
      letter-spacing="${spacing}"
      fill="${NAVY}"
      ${trusted(fit)}
    >
      ${word}
    </text>
  </svg>`;
}

/** The certificate's stylesheet (`styles/certificate.css`), read once at load with the design's colours and sizes. */
const STYLESHEET = loadStylesheet('certificate.css', {
  sans: SANS,
  serif: SERIF,
  ink: INK,
  navy: NAVY,
  gold: GOLD,
  rule: COLOURS.RULE,
  'name-size': `${NAME_SIZE.max}pt`,
  'name-box-width': `${NAME_WIDTH_MM + 12}mm`,
});

/**
 * A certificate written right to left (`styles/certificate-rtl.css`, after the sheet): its rows mirror by
 * themselves (flex follows the direction); Arabic is set upright and unspaced (its letters join), on lines about as
 * tall as the Latin ones (Amiri's own line gap is wider, and the page would overflow its frame) with room for its
 * deep descenders above the rules; the code and the address stay left to right.
 */
const RIGHT_TO_LEFT = loadStylesheet('certificate-rtl.css');

/**
 * The name's box: a whole certificate's is the name's own width, its line as long as the name; a template's keeps
 * the widest a name may take, its line left out (the press draws it as long as the name it writes).
 */
const STYLESHEETS = {
  whole: fillSlot(STYLESHEET, 'name-fit', 'width: auto;'),
  template: fillSlot(STYLESHEET, 'name-fit', 'border-bottom-color: transparent;'),
};

const stylesheet = (whole: boolean, t: CertificateTranslator) =>
  trusted(STYLESHEETS[whole ? 'whole' : 'template'] + (t.dir === 'rtl' ? RIGHT_TO_LEFT : ''));

/** An empty inline-block on a slot's baseline: the template tells where the student's text would stand. */
const STRUT = trusted('<span class="strut"></span>');

/**
 * The certificate page (A4 landscape); every value escaped, fonts and images inline. With `fields`, the whole
 * certificate of one student; without, the template every certificate of the design is printed on (see
 * `certificate-press`): the student's own text is left out, and an empty `data-slot` box marks where each goes.
 * An empty inline-block (`.strut`) sits on each slot's baseline, so the template tells where text would stand.
 * `nameSize` is the name's size in points, chosen by the caller to fit the name on one line.
 */
export async function certificateHtml(
  design: CertificateDesign,
  fontFaces: string,
  fields?: CertificateFields & { nameSize: number },
): Promise<string> {
  const t = certificateTranslator(design.language);
  return html`<!doctype html>
    <html lang="${t.language}" ${trusted(t.dir === 'rtl' ? 'dir="rtl"' : '')}>
      <head>
        <meta charset="utf-8" />
        <title>${t.text('certificate.title')}</title>
        <style>
          ${trusted(fontFaces)} ${stylesheet(fields !== undefined, t)}
        </style>
      </head>
      <body>
        <div class="frame"></div>
        <div class="corner tl"></div>
        <div class="corner tr"></div>
        <div class="corner bl"></div>
        <div class="corner br"></div>
        <main class="content">
          ${award(design, t, fields)}
          <div class="footer">
            <div class="sign">
              <div class="line"></div>
              <div class="who">${design.signatory}</div>
              <div class="role">${design.providerName}</div>
            </div>
            ${seal(t)} ${await verification(design, t, fields)}
          </div>
        </main>
      </body>
    </html>`.value;
}

/** The provider, the title and what was awarded to whom: the student's name, score and date, or their slots. */
function award(
  design: CertificateDesign,
  t: CertificateTranslator,
  fields: (CertificateFields & { nameSize: number }) | undefined,
): SafeHtml {
  return html`<div class="provider">${design.providerName}</div>
    <h1>${t.text('certificate.title')}</h1>
    <div class="rule"></div>
    <p class="lead">${t.text('certificate.lead')}</p>
    <div class="name" data-slot="name">
      ${STRUT}<span style="font-size: ${fields?.nameSize ?? NAME_SIZE.max}pt"
        >${fields && isolatedName(fields.name)}</span
      >
    </div>
    <p class="what">
      ${trusted(t.html('certificate.completed', { title: design.assessmentTitle }))}<br /><span
        class="line"
        data-slot="score"
        >${STRUT}${fields ? trusted(t.html('certificate.score', scoreValues(t, fields.percentage))) : ''}</span
      >
    </p>
    <p class="awarded" data-slot="awarded">${STRUT}${fields ? awardedText(t, fields.awardedAt) : ''}</p>`;
}

/** The QR code and the code, with the address that verifies it; on a template, their slots. */
async function verification(
  design: CertificateDesign,
  t: CertificateTranslator,
  fields: CertificateFields | undefined,
): Promise<SafeHtml> {
  const code = fields?.code ?? CODE_PLACEHOLDER;
  const qr = fields
    ? trusted(
        await QRCode.toString(design.verificationBase + fields.code, {
          type: 'svg',
          margin: 0,
          errorCorrectionLevel: 'M',
          color: { dark: INK, light: '#ffffff' },
        }),
      )
    : trusted('<span class="qr" data-slot="qr"></span>');
  return html`<div class="verify">
    ${qr}
    <div>
      ${t.text('certificate.code')}<span class="code" data-slot="code"
        >${STRUT}<span class=${fields ? '' : 'placeholder'}>${code}</span></span
      ><span class="url"
        >${design.verificationBase}<wbr /><span class="url__code" data-slot="url-code"
          >${STRUT}<span class=${fields ? '' : 'placeholder'}>${code}</span></span
        ></span
      >
    </div>
  </div>`;
}
