/**
 * The student mails' English, as they were before they had other languages: it defines the ids every other
 * catalogue has. ICU MessageFormat; `<strong>` marks what the HTML mail emphasises.
 */
export const en = {
  'mail.greeting': 'Hello {name},',
  'mail.footer':
    'This message was sent by {product}, the distance-education readiness assessment. Please do not reply to it.',

  'invitation.subject':
    'You are invited to take {titled, select, yes {the {title}} other {the readiness assessment}}',
  'invitation.subject.resent': 'Reminder: your {product} assessment invitation',
  'invitation.intro':
    'You are invited to take {titled, select, yes {the {title}} other {the readiness assessment}} with {product}, to see how ready you are for distance education.',
  'invitation.time.extra':
    'You have {ownTime}, which includes your {extra} extra time ({limit} for everyone); the timer starts only when you press Start.',
  'invitation.time.limit': 'It takes at most {limit}; the timer starts only when you press Start.',
  'invitation.time.none': 'The timer starts only when you press Start.',
  /** A time limit of minutes and seconds, each already written with its unit: `37 minutes 30 seconds`. */
  'invitation.duration': '{minutes} {seconds}',
  'invitation.open': 'Open your assessment: {url}',
  'invitation.open.button': 'Open your assessment',
  'invitation.copy': 'Or copy this link into your browser:',
  'invitation.valid': 'The link is personal and stays valid until {expiresAt} unless you start before.',
  'invitation.personal': 'The link is personal: do not share it.',
  'invitation.contact': 'Questions? Contact {contact}.',
  'invitation.contact.inviter': 'Questions? Contact the administrator who invited you.',

  'certificate.subject':
    'Congratulations! Your certificate for {titled, select, yes {the {title}} other {the readiness assessment}}',
  'certificate.subject.resent':
    'Your certificate for {titled, select, yes {the {title}} other {the readiness assessment}} (sent again)',
  'certificate.passed':
    'Congratulations on passing <strong>{titled, select, yes {the {title}} other {the readiness assessment}}</strong> with a score of <strong>{score}</strong>!',
  'certificate.resent':
    'As requested, here is your certificate for <strong>{titled, select, yes {the {title}} other {the readiness assessment}}</strong> again.',
  'certificate.attached': 'Your certificate is attached to this message as a PDF. Keep it for your records.',
  'certificate.verify': 'Anyone can check that it is genuine at {url} (verification code {code}).',
  'certificate.code': 'Verification code:',
  'certificate.verify.there': 'Anyone you show it to can check there that it is genuine.',
  'certificate.openBadge':
    "Your certificate is also an Open Badge, a signed credential that digital wallets and employers' systems read: {url}",
  'certificate.openBadge.html':
    "Your certificate is also an Open Badge, a signed credential that digital wallets and employers' systems read:",
  'certificate.wishes': 'We wish you every success in your studies.',
} as const;

export type MailMessage = keyof typeof en;
