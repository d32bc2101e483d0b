import type { Catalogue } from '@readiness/kit/i18n';
import type { MailMessage } from './en';

/** Portuguese, addressing the student as você, in words that need no gender. */
export const pt: Catalogue<MailMessage> = {
  'mail.greeting': 'Olá, {name},',
  'mail.footer':
    'Esta mensagem foi enviada pelo {product}, a avaliação de preparação para a educação a distância. Por favor, não responda a esta mensagem.',

  'invitation.subject':
    'Convite para realizar {titled, select, yes {a avaliação “{title}”} other {a avaliação de preparação}}',
  'invitation.subject.resent': 'Lembrete: seu convite para a avaliação do {product}',
  'invitation.intro':
    'Convidamos você a realizar {titled, select, yes {a avaliação “{title}”} other {a avaliação de preparação}} no {product} para conhecer o seu nível de preparação para a educação a distância.',
  'invitation.time.extra':
    'Você tem {ownTime}, já incluído o seu tempo adicional de {extra} ({limit} no tempo padrão); a contagem do tempo só começa quando você clicar em “Iniciar a avaliação”.',
  'invitation.time.limit':
    'A avaliação leva no máximo {limit}; a contagem do tempo só começa quando você clicar em “Iniciar a avaliação”.',
  'invitation.time.none': 'A contagem do tempo só começa quando você clicar em “Iniciar a avaliação”.',
  'invitation.duration': '{minutes} e {seconds}',
  'invitation.open': 'Acesse sua avaliação: {url}',
  'invitation.open.button': 'Acessar a avaliação',
  'invitation.copy': 'Ou copie este link no seu navegador:',
  'invitation.valid': 'O link é pessoal e permanece válido até {expiresAt}, a menos que você comece antes.',
  'invitation.personal': 'O link é pessoal: não o compartilhe.',
  'invitation.contact': 'Dúvidas? Entre em contato com {contact}.',
  'invitation.contact.inviter': 'Dúvidas? Entre em contato com a pessoa que enviou o seu convite.',

  'certificate.subject':
    'Parabéns! Seu certificado {titled, select, yes {de “{title}”} other {da avaliação de preparação}}',
  'certificate.subject.resent':
    'Seu certificado {titled, select, yes {de “{title}”} other {da avaliação de preparação}} (reenviado)',
  'certificate.passed':
    'Parabéns pela aprovação {titled, select, yes {em <strong>“{title}”</strong>} other {na <strong>avaliação de preparação</strong>}} com pontuação de <strong>{score}</strong>!',
  'certificate.resent':
    'Conforme solicitado, enviamos novamente seu certificado {titled, select, yes {de <strong>“{title}”</strong>} other {da <strong>avaliação de preparação</strong>}}.',
  'certificate.attached':
    'Seu certificado está anexado a esta mensagem em PDF. Guarde-o com seus documentos.',
  'certificate.verify':
    'Qualquer pessoa pode confirmar a autenticidade dele em {url} (código de verificação {code}).',
  'certificate.code': 'Código de verificação:',
  'certificate.verify.there': 'Qualquer pessoa a quem você o mostrar pode confirmar ali que ele é autêntico.',
  'certificate.openBadge':
    'Seu certificado também é um Open Badge, uma credencial assinada que carteiras digitais e sistemas de empregadores leem: {url}',
  'certificate.openBadge.html':
    'Seu certificado também é um Open Badge, uma credencial assinada que carteiras digitais e sistemas de empregadores leem:',
  'certificate.wishes': 'Desejamos muito sucesso em seus estudos.',
};
