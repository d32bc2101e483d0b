import type { Catalogue } from '@readiness/kit/i18n';
import type { CertificateMessage } from './en';

export const pt: Catalogue<CertificateMessage> = {
  'certificate.title': 'Certificado de aproveitamento',
  'certificate.lead': 'Certificamos que',
  'certificate.completed': 'concluiu com êxito <strong>{title}</strong>',
  'certificate.score': 'com pontuação de <strong>{score}</strong>.',
  'certificate.awarded': 'Emitido em {date}',
  'certificate.code': 'Código de verificação',
  'certificate.seal': 'APROVADO',
};
