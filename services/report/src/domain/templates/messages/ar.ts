import type { Catalogue } from '@readiness/kit/i18n';
import type { CertificateMessage } from './en';

/**
 * Arabic (Modern Standard), right to left, in words that need no gender for the student (تمنح هذه الشهادة إلى,
 * تقديرا لاجتياز) and without vowel marks, as printed Arabic usually is: text extractors (pdftotext) put a mark
 * before its letter, so a certificate without them is also one whose text is copied right.
 */
export const ar: Catalogue<CertificateMessage> = {
  'certificate.title': 'شهادة إنجاز',
  'certificate.lead': 'تمنح هذه الشهادة إلى',
  'certificate.completed': 'تقديرا لاجتياز <strong>{title}</strong> بنجاح',
  'certificate.score': 'بنتيجة <strong>{score}</strong>',
  'certificate.awarded': 'منحت بتاريخ {date}',
  'certificate.code': 'رمز التحقق',
  'certificate.seal': 'نجاح',
};
