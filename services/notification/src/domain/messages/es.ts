import type { Catalogue } from '@readiness/kit/i18n';
import type { MailMessage } from './en';

/** Spanish, addressing the student as usted. */
export const es: Catalogue<MailMessage> = {
  'mail.greeting': 'Hola, {name}:',
  'mail.footer':
    'Este mensaje ha sido enviado por {product}, la evaluación de preparación para la educación a distancia. Le rogamos que no responda a este mensaje.',

  'invitation.subject':
    'Le invitamos a realizar {titled, select, yes {la evaluación «{title}»} other {la evaluación de preparación}}',
  'invitation.subject.resent': 'Recordatorio: su invitación a la evaluación de {product}',
  'invitation.intro':
    'Le invitamos a realizar {titled, select, yes {la evaluación «{title}»} other {la evaluación de preparación}} en {product} para conocer su grado de preparación para la educación a distancia.',
  'invitation.time.extra':
    'Dispone de {ownTime}, lo que incluye su {extra} de tiempo adicional ({limit} con carácter general); el temporizador solo empieza a contar cuando pulse «Comenzar la evaluación».',
  'invitation.time.limit':
    'La evaluación dura como máximo {limit}; el temporizador solo empieza a contar cuando pulse «Comenzar la evaluación».',
  'invitation.time.none': 'El temporizador solo empieza a contar cuando pulse «Comenzar la evaluación».',
  'invitation.duration': '{minutes} y {seconds}',
  'invitation.open': 'Acceda a su evaluación: {url}',
  'invitation.open.button': 'Acceder a la evaluación',
  'invitation.copy': 'O copie este enlace en su navegador:',
  'invitation.valid':
    'El enlace es personal y seguirá siendo válido hasta el {expiresAt}, a menos que empiece antes.',
  'invitation.personal': 'El enlace es personal: no lo comparta.',
  'invitation.contact': '¿Tiene alguna pregunta? Póngase en contacto con {contact}.',
  'invitation.contact.inviter':
    '¿Tiene alguna pregunta? Póngase en contacto con la persona que le envió la invitación.',

  'certificate.subject':
    '¡Enhorabuena! Su certificado de {titled, select, yes {«{title}»} other {la evaluación de preparación}}',
  'certificate.subject.resent':
    'Su certificado de {titled, select, yes {«{title}»} other {la evaluación de preparación}} (nuevo envío)',
  'certificate.passed':
    '¡Enhorabuena por haber superado <strong>{titled, select, yes {«{title}»} other {la evaluación de preparación}}</strong> con una puntuación del <strong>{score}</strong>!',
  'certificate.resent':
    'Tal como ha solicitado, le enviamos de nuevo su certificado de <strong>{titled, select, yes {«{title}»} other {la evaluación de preparación}}</strong>.',
  'certificate.attached':
    'Encontrará su certificado adjunto a este mensaje en formato PDF. Le recomendamos que lo conserve.',
  'certificate.verify':
    'Cualquier persona puede comprobar su autenticidad en {url} (código de verificación {code}).',
  'certificate.code': 'Código de verificación:',
  'certificate.verify.there':
    'Cualquier persona a la que se lo muestre puede comprobar allí que es auténtico.',
  'certificate.openBadge':
    'Su certificado también es un Open Badge, una credencial firmada que leen las billeteras digitales y los sistemas de los empleadores: {url}',
  'certificate.openBadge.html':
    'Su certificado también es un Open Badge, una credencial firmada que leen las billeteras digitales y los sistemas de los empleadores:',
  'certificate.wishes': 'Le deseamos mucho éxito en sus estudios.',
};
