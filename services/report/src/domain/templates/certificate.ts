import type { Language } from '@readiness/contracts';
import QRCode from 'qrcode';
import { SANS, SERIF } from './fonts';
import { html, isolatedName, trusted } from './html';
import { certificateTranslator, type CertificateTranslator } from './messages';

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

/**
 * A certificate written right to left: its rows mirror by themselves (flex follows the direction); Arabic is set
 * upright and unspaced (its letters join), on lines about as tall as the Latin ones (Amiri's own line gap is wider,
 * and the page would overflow its frame) with room for its deep descenders above the rules; the code and the
 * address stay left to right.
 */
const RIGHT_TO_LEFT = `
  h1 { letter-spacing: 0; line-height: 1.45; }
  .name { padding-bottom: 4mm; }
  .lead { font-style: normal; line-height: 1.3; }
  .awarded { line-height: 1.3; }
  .verify { text-align: right; }
  .code, .url { direction: ltr; unicode-bidi: isolate; }
`;

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
  const STRUT = trusted('<span class="strut"></span>');
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
  return html`<!doctype html>
    <html lang="${t.language}" ${trusted(t.dir === 'rtl' ? 'dir="rtl"' : '')}>
      <head>
        <meta charset="utf-8" />
        <title>${t.text('certificate.title')}</title>
        <style>
          ${trusted(fontFaces)} @page {
            size: A4 landscape;
            margin: 0;
          }
          * {
            box-sizing: border-box;
          }
          html,
          body {
            margin: 0;
            padding: 0;
          }
          body {
            /* Every box is placed on the page itself, so the screen lays it out as the paper does (see the slots). */
            position: relative;
            width: 297mm;
            height: 210mm;
            font-family: ${trusted(SANS)};
            color: ${trusted(INK)};
            background: #fffdf8;
          }
          .frame {
            position: absolute;
            inset: 9mm;
            border: 2.2mm solid ${trusted(NAVY)};
          }
          .frame::after {
            content: '';
            position: absolute;
            inset: 2.5mm;
            border: 0.5mm solid ${trusted(GOLD)};
          }
          .corner {
            position: absolute;
            width: 14mm;
            height: 14mm;
            border-color: ${trusted(GOLD)};
            border-style: solid;
          }
          .tl {
            top: 15mm;
            left: 15mm;
            border-width: 0.9mm 0 0 0.9mm;
          }
          .tr {
            top: 15mm;
            right: 15mm;
            border-width: 0.9mm 0.9mm 0 0;
          }
          .bl {
            bottom: 15mm;
            left: 15mm;
            border-width: 0 0 0.9mm 0.9mm;
          }
          .br {
            bottom: 15mm;
            right: 15mm;
            border-width: 0 0.9mm 0.9mm 0;
          }
          .content {
            position: absolute;
            inset: 26mm 34mm 27mm;
            text-align: center;
            display: flex;
            flex-direction: column;
            align-items: center;
          }
          .provider {
            font-size: 10.5pt;
            font-weight: 600;
            letter-spacing: 0.32em;
            text-transform: uppercase;
            color: ${trusted(NAVY)};
          }
          h1 {
            font-family: ${trusted(SERIF)};
            font-weight: 600;
            font-size: 44pt;
            margin: 8mm 0 0;
            letter-spacing: 0.02em;
            color: ${trusted(NAVY)};
          }
          .rule {
            width: 70mm;
            height: 0.4mm;
            background: ${trusted(GOLD)};
            margin: 4mm auto 6mm;
          }
          .lead {
            font-family: ${trusted(SERIF)};
            font-style: italic;
            font-size: 15pt;
            margin: 0;
          }
          .name {
            font-family: ${trusted(SERIF)};
            font-weight: 600;
            margin: 5mm 0 4mm;
            padding: 0 6mm 1.5mm;
            border-bottom: 0.3mm solid ${trusted(COLOURS.RULE)};
            font-size: ${NAME_SIZE.max}pt;
            width: ${NAME_WIDTH_MM + 12}mm;
            white-space: nowrap;
            line-height: 1.15;
            /* One line, the name's own width: the line under it is as long as the name. */
            ${trusted(fields ? 'width: auto;' : 'border-bottom-color: transparent;')}
          }
          .strut {
            display: inline-block;
            width: 0;
            height: 0;
          }
          .placeholder {
            visibility: hidden;
          }
          .qr {
            display: block;
            width: 24mm;
            height: 24mm;
            flex: none;
          }
          .what {
            font-size: 13pt;
            line-height: 1.6;
            max-width: 200mm;
            margin: 3mm 0 0;
          }
          .what strong {
            font-weight: 600;
          }
          .footer {
            margin-top: auto;
            width: 100%;
            display: flex;
            align-items: flex-end;
            justify-content: space-between;
          }
          .sign {
            width: 72mm;
            text-align: center;
            font-size: 10pt;
            padding-bottom: 2mm;
          }
          .sign .line {
            border-top: 0.35mm solid ${trusted(INK)};
            margin-bottom: 2mm;
          }
          .sign .who {
            font-weight: 600;
          }
          .sign .role {
            color: #5b6475;
            font-size: 9pt;
          }
          .awarded {
            font-family: ${trusted(SERIF)};
            font-size: 14pt;
            margin: 5mm 0 0;
          }
          .verify {
            width: 72mm;
            display: flex;
            align-items: center;
            gap: 4mm;
            text-align: left;
            font-size: 8.5pt;
            color: #5b6475;
          }
          .verify svg,
          .verify .qr {
            width: 24mm;
            height: 24mm;
            flex: none;
          }
          .code {
            display: block;
            white-space: nowrap;
            font-weight: 700;
            font-size: 11pt;
            letter-spacing: 0.08em;
            color: ${trusted(INK)};
            margin: 1mm 0;
          }
          .url {
            overflow-wrap: anywhere;
          }
          /* The address may wrap anywhere before the code, never inside it: the code is read off the paper. */
          .url__code {
            white-space: nowrap;
          }
          ${trusted(t.dir === 'rtl' ? RIGHT_TO_LEFT : '')}
        </style>
      </head>
      <body>
        <div class="frame"></div>
        <div class="corner tl"></div>
        <div class="corner tr"></div>
        <div class="corner bl"></div>
        <div class="corner br"></div>
        <main class="content">
          <div class="provider">${design.providerName}</div>
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
              >${STRUT}${
                fields ? trusted(t.html('certificate.score', scoreValues(t, fields.percentage))) : ''
              }</span
            >
          </p>
          <p class="awarded" data-slot="awarded">${STRUT}${fields ? awardedText(t, fields.awardedAt) : ''}</p>
          <div class="footer">
            <div class="sign">
              <div class="line"></div>
              <div class="who">${design.signatory}</div>
              <div class="role">${design.providerName}</div>
            </div>
            ${seal(t)}
            <div class="verify">
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
            </div>
          </div>
        </main>
      </body>
    </html>`.value;
}
