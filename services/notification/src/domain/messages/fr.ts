import type { Catalogue } from '@readiness/kit/i18n';
import type { MailMessage } from './en';

/** French, addressing the student as vous; a no-break space before « : ; ! ? » and inside guillemets. */
export const fr: Catalogue<MailMessage> = {
  'mail.greeting': 'Bonjour {name},',
  'mail.footer':
    'Ce message vous a été envoyé par {product}, l’évaluation de préparation à la formation à distance. Merci de ne pas y répondre.',

  'invitation.subject':
    'Invitation à passer {titled, select, yes {l’évaluation «\u00a0{title}\u00a0»} other {l’évaluation de préparation}}',
  'invitation.subject.resent': 'Rappel\u00a0: votre invitation à l’évaluation {product}',
  'invitation.intro':
    'Nous vous invitons à passer {titled, select, yes {l’évaluation «\u00a0{title}\u00a0»} other {l’évaluation de préparation}} sur {product} afin de mesurer votre degré de préparation à la formation à distance.',
  'invitation.time.extra':
    'Vous disposez de {ownTime}, temps supplémentaire de {extra} compris ({limit} en temps normal)\u00a0; le minuteur ne démarre que lorsque vous appuyez sur «\u00a0Commencer l’évaluation\u00a0».',
  'invitation.time.limit':
    'L’évaluation dure au maximum {limit}\u00a0; le minuteur ne démarre que lorsque vous appuyez sur «\u00a0Commencer l’évaluation\u00a0».',
  'invitation.time.none':
    'Le minuteur ne démarre que lorsque vous appuyez sur «\u00a0Commencer l’évaluation\u00a0».',
  'invitation.duration': '{minutes} et {seconds}',
  'invitation.open': 'Accéder à votre évaluation\u00a0: {url}',
  'invitation.open.button': 'Accéder à votre évaluation',
  'invitation.copy': 'Vous pouvez aussi copier ce lien dans votre navigateur\u00a0:',
  'invitation.valid':
    'Ce lien est personnel et reste valable jusqu’au {expiresAt}, sauf si vous commencez avant.',
  'invitation.personal': 'Ce lien est personnel\u00a0: ne le partagez pas.',
  'invitation.contact': 'Des questions\u00a0? Contactez {contact}.',
  'invitation.contact.inviter': 'Des questions\u00a0? Contactez la personne qui vous a envoyé l’invitation.',

  'certificate.subject':
    'Félicitations\u00a0! Votre certificat pour {titled, select, yes {«\u00a0{title}\u00a0»} other {l’évaluation de préparation}}',
  'certificate.subject.resent':
    'Votre certificat pour {titled, select, yes {«\u00a0{title}\u00a0»} other {l’évaluation de préparation}} (nouvel envoi)',
  'certificate.passed':
    'Félicitations pour votre réussite à <strong>{titled, select, yes {«\u00a0{title}\u00a0»} other {l’évaluation de préparation}}</strong> avec un résultat de <strong>{score}</strong>\u00a0!',
  'certificate.resent':
    'Comme vous l’avez demandé, voici de nouveau votre certificat pour <strong>{titled, select, yes {«\u00a0{title}\u00a0»} other {l’évaluation de préparation}}</strong>.',
  'certificate.attached':
    'Votre certificat est joint à ce message au format PDF. Conservez-le précieusement.',
  'certificate.verify':
    'Toute personne peut en vérifier l’authenticité sur {url} (code de vérification {code}).',
  'certificate.code': 'Code de vérification\u00a0:',
  'certificate.verify.there': 'Toute personne à qui vous le présentez peut y vérifier son authenticité.',
  'certificate.openBadge':
    'Votre certificat est aussi un Open Badge, un justificatif signé que lisent les portefeuilles numériques et les systèmes des employeurs : {url}',
  'certificate.openBadge.html':
    'Votre certificat est aussi un Open Badge, un justificatif signé que lisent les portefeuilles numériques et les systèmes des employeurs :',
  'certificate.wishes': 'Nous vous souhaitons plein succès dans vos études.',
};
