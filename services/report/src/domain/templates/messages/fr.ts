import type { Catalogue } from '@readiness/kit/i18n';
import type { CertificateMessage } from './en';

export const fr: Catalogue<CertificateMessage> = {
  'certificate.title': 'Certificat de réussite',
  'certificate.lead': 'Le présent certificat atteste que',
  'certificate.completed': 'a réussi <strong>{title}</strong>',
  'certificate.score': 'avec un résultat de <strong>{score}</strong>.',
  'certificate.awarded': 'Délivré le {date}',
  'certificate.code': 'Code de vérification',
  'certificate.seal': 'RÉUSSI',
};
