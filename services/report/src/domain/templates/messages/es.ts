import type { Catalogue } from '@readiness/kit/i18n';
import type { CertificateMessage } from './en';

export const es: Catalogue<CertificateMessage> = {
  'certificate.title': 'Certificado de logro',
  'certificate.lead': 'Por la presente se certifica que',
  'certificate.completed': 'ha superado con éxito <strong>{title}</strong>',
  'certificate.score': 'con una puntuación del <strong>{score}</strong>.',
  'certificate.awarded': 'Otorgado el {date}',
  'certificate.code': 'Código de verificación',
  'certificate.seal': 'APROBADO',
};
