import QRCode from 'qrcode';
import { SANS, SERIF } from './fonts';
import { longDate } from './format';
import { html, trusted } from './html';

export interface CertificateContent {
  name: string;
  assessmentTitle: string;
  percentage: number;
  awardedAt: Date;
  code: string;
  verificationUrl: string;
  providerName: string;
  signatory: string;
}

const INK = '#1f2a44';
const NAVY = '#1e3a8a';
const GOLD = '#b08d3c';

/** A seal drawn in SVG: no image file to load. */
const SEAL = trusted(`<svg viewBox="0 0 120 120" width="34mm" height="34mm" aria-hidden="true">
  <g fill="none" stroke="${GOLD}">
    <circle cx="60" cy="60" r="56" stroke-width="3"/>
    <circle cx="60" cy="60" r="49" stroke-width="1"/>
    <circle cx="60" cy="60" r="44" stroke-width="0.6" stroke-dasharray="2 2.4"/>
  </g>
  <path d="M60 30 l7.6 15.4 17 2.5 -12.3 12 2.9 16.9 -15.2 -8 -15.2 8 2.9 -16.9 -12.3 -12 17 -2.5z" fill="${GOLD}" opacity="0.9"/>
  <text x="60" y="94" text-anchor="middle" font-family="Inter" font-weight="700" font-size="10" letter-spacing="2" fill="${NAVY}">PASSED</text>
</svg>`);

/** The certificate page (A4 landscape); every value escaped, fonts and images inline. */
export async function certificateHtml(content: CertificateContent, fontFaces: string): Promise<string> {
  const url = content.verificationUrl;
  const [addressBase, addressCode] = url.endsWith(content.code)
    ? [url.slice(0, url.length - content.code.length), content.code]
    : [url, ''];
  const qr = await QRCode.toString(content.verificationUrl, {
    type: 'svg',
    margin: 0,
    errorCorrectionLevel: 'M',
    color: { dark: INK, light: '#ffffff' },
  });
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <title>Certificate of Achievement</title>
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
            font-size: 38pt;
            margin: 5mm 0 4mm;
            padding: 0 6mm 1.5mm;
            border-bottom: 0.3mm solid #c9c2b0;
            max-width: 220mm;
            overflow-wrap: anywhere;
            line-height: 1.15;
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
          .verify svg {
            width: 24mm;
            height: 24mm;
            flex: none;
          }
          .code {
            display: block;
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
        </style>
      </head>
      <body>
        <div class="frame"></div>
        <div class="corner tl"></div>
        <div class="corner tr"></div>
        <div class="corner bl"></div>
        <div class="corner br"></div>
        <main class="content">
          <div class="provider">${content.providerName}</div>
          <h1>Certificate of Achievement</h1>
          <div class="rule"></div>
          <p class="lead">This is to certify that</p>
          <div class="name">${content.name}</div>
          <p class="what">
            has successfully completed <strong>${content.assessmentTitle}</strong><br />with a score of
            <strong>${content.percentage}%</strong>.
          </p>
          <p class="awarded">Awarded on ${longDate(content.awardedAt)}</p>
          <div class="footer">
            <div class="sign">
              <div class="line"></div>
              <div class="who">${content.signatory}</div>
              <div class="role">${content.providerName}</div>
            </div>
            ${SEAL}
            <div class="verify">
              ${trusted(qr)}
              <div>
                Verification code<span class="code">${content.code}</span
                ><span class="url">${addressBase}<wbr /><span class="url__code">${addressCode}</span></span>
              </div>
            </div>
          </div>
        </main>
      </body>
    </html>`.value;
}
