/**
 * The certificate's English, as it was before it had other languages: it defines the ids every other catalogue
 * has. ICU MessageFormat; `<strong>` marks what is set in the bold face (the press writes it in its semibold).
 */
export const en = {
  'certificate.title': 'Certificate of Achievement',
  'certificate.lead': 'This is to certify that',
  'certificate.completed': 'has successfully completed <strong>{title}</strong>',
  'certificate.score': 'with a score of <strong>{score}</strong>.',
  'certificate.awarded': 'Awarded on {date}',
  'certificate.code': 'Verification code',
  /** The word in the seal, in capitals where the script has them. */
  'certificate.seal': 'PASSED',
} as const;

export type CertificateMessage = keyof typeof en;
