import type { FactorChangeKind } from '@readiness/contracts';
import { escapeHtml, isolated, isolateHtml, isolateText, type MessageValues } from '@readiness/kit/i18n';
import { mailTranslator, type MailMessage, type MailTranslator } from './messages';

/**
 * Mail templates: every mail has an HTML body in the shared layout and a plain-text twin with the same
 * content. Every value from data is escaped before it reaches HTML, and every name is isolated (`<bdi>` in HTML,
 * U+2068 … U+2069 in text) so that one written right to left cannot reorder the sentence around it. A student's mails are written in their
 * language from the catalogues in `messages/`; an administrator's stay English.
 */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const PRODUCT = 'Readiness';

// The mails escape text as the kit's translator does (one escaper for mails and certificates).
export { escapeHtml };

/** What the layout needs of a language: its words, its tag and its direction. */
type LayoutLanguage = Pick<MailTranslator, 'language' | 'dir' | 'html'>;

/** Type faces that carry Arabic script on Windows, macOS and iOS, and Android, before the generic fallback. */
const RTL_FONTS = 'Segoe UI,Tahoma,Geeza Pro,Noto Sans Arabic,Arial,sans-serif';

/**
 * The mail's frame, in the language of its text: `lang` on the document, and for a language written right to left
 * `dir` on the document and again on the table (some mail clients drop the `html` element's attributes).
 */
function layout(t: LayoutLanguage, title: string, bodyHtml: string): string {
  const dir = t.dir === 'rtl' ? ' dir="rtl"' : '';
  const fonts = t.dir === 'rtl' ? RTL_FONTS : 'Segoe UI,Roboto,Helvetica,Arial,sans-serif';
  return `<!doctype html>
<html lang="${t.language}"${dir}>
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:16px 8px;background:#f4f6fb;font-family:${fonts};color:#1f2937">
  <table role="presentation"${dir} width="100%" cellspacing="0" cellpadding="0" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;border:1px solid #e5e7eb">
    <tr><td style="padding:20px 28px;border-bottom:1px solid #e5e7eb;font-size:18px;font-weight:600;color:#1e3a8a">${PRODUCT}</td></tr>
    <tr><td style="padding:28px;font-size:15px;line-height:1.6">${bodyHtml}</td></tr>
    <tr><td style="padding:16px 28px;border-top:1px solid #e5e7eb;font-size:12px;color:#6b7280">${t.html('mail.footer', { product: PRODUCT })}</td></tr>
  </table>
</body>
</html>`;
}

/** A moment in an administrator's mail: '3 March 2026 at 14:05 UTC'. */
const adminMoment = (at: Date) =>
  `${new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(at)} UTC`;

export function adminPasswordReset(input: {
  name: string;
  temporaryPassword: string;
  loginUrl: string;
}): RenderedMail {
  const subject = `Your ${PRODUCT} admin password was reset`;
  const text = [
    `Hello ${isolateText(input.name)},`,
    '',
    `A super administrator reset your password for the ${PRODUCT} admin portal.`,
    '',
    `Temporary password: ${input.temporaryPassword}`,
    '',
    `Sign in at ${input.loginUrl} with this temporary password. You will be asked to choose a new password before you can continue.`,
    '',
    'If you did not expect this, contact your system administrator.',
  ].join('\n');
  const html = layout(
    mailTranslator('en'),
    subject,
    `<p>Hello ${isolateHtml(input.name)},</p>
<p>A super administrator reset your password for the ${PRODUCT} admin portal.</p>
<p>Temporary password: <code style="font-size:16px;padding:4px 8px;background:#eef2ff;border-radius:4px">${escapeHtml(input.temporaryPassword)}</code></p>
<p><a href="${escapeHtml(input.loginUrl)}" style="display:inline-block;padding:10px 18px;background:#1e3a8a;color:#ffffff;border-radius:6px;text-decoration:none">Sign in</a></p>
<p>You will be asked to choose a new password before you can continue.</p>
<p style="color:#6b7280">If you did not expect this, contact your system administrator.</p>`,
  );
  return { subject, text, html };
}

const FACTOR_SUBJECTS: Record<FactorChangeKind, string> = {
  'passkey-added': 'A passkey was added to your account',
  'passkey-removed': 'A passkey was removed from your account',
  'authenticator-added': 'An authenticator app was set up for your account',
  'authenticator-removed': 'The authenticator app was removed from your account',
  'recovery-codes-replaced': 'New recovery codes were made for your account',
  'factors-reset': 'Your two-factor sign-in was reset',
};

/** The sentence that says what happened, from values already in the mail's own form (text, or HTML escaped and isolated). */
function factorChangeSentence(
  change: FactorChangeKind,
  v: { factorName: string; actorName: string; byOther: boolean; when: string },
): string {
  const account = `your ${PRODUCT} admin account`;
  switch (change) {
    case 'passkey-added':
      return `A passkey named “${v.factorName}” was added to ${account} on ${v.when}. It can sign in to your account without your password.`;
    case 'passkey-removed':
      return `The passkey “${v.factorName}” was removed from ${account} on ${v.when}. It no longer signs you in.`;
    case 'authenticator-added':
      return `An authenticator app was set up for ${account} on ${v.when}. Sign-in with your password now also asks for its code.`;
    case 'authenticator-removed':
      return `The authenticator app was removed from ${account} on ${v.when}. Its codes no longer sign you in.`;
    case 'recovery-codes-replaced':
      return `New recovery codes were made for ${account} on ${v.when}. The codes you had before no longer work.`;
    case 'factors-reset':
      return v.byOther
        ? `${v.actorName}, a super administrator, removed every passkey, the authenticator app and the recovery codes of ${account} on ${v.when}. Your next sign-in asks for your password only, or for a new authenticator app where every admin must have one.`
        : `Every passkey, the authenticator app and the recovery codes of ${account} were removed on ${v.when}.`;
  }
}

const NOT_YOU =
  'Not you? Someone else may be signed in to your account. Sign in, open Security under your name in the menu, choose “Sign out everywhere”, remove any passkey or authenticator app you do not recognise, and change your password. If you cannot sign in, ask a super administrator to reset your password: that also removes every passkey and authenticator app from your account.';

/** The admin is told of every change to how they sign in, with what to do when it was not them. */
export function adminFactorChanged(input: {
  name: string;
  change: FactorChangeKind;
  factorName: string;
  actorName: string;
  /** Someone other than the admin made the change (a super admin's reset). */
  byOther: boolean;
  changedAt: Date;
  securityUrl: string;
}): RenderedMail {
  const subject = FACTOR_SUBJECTS[input.change];
  const when = adminMoment(input.changedAt);
  // Names set apart from the sentence (a name written right to left must not turn it around).
  const said = (isolate: (s: string) => string) =>
    factorChangeSentence(input.change, {
      factorName: isolate(input.factorName),
      actorName: isolate(input.actorName),
      byOther: input.byOther,
      when,
    });
  const text = [
    `Hello ${isolateText(input.name)},`,
    '',
    said(isolateText),
    '',
    'If it was you, there is nothing to do.',
    '',
    NOT_YOU,
    '',
    `Your Security page: ${input.securityUrl}`,
  ].join('\n');
  const html = layout(
    mailTranslator('en'),
    subject,
    `<p>Hello ${isolateHtml(input.name)},</p>
<p>${said(isolateHtml)}</p>
<p>If it was you, there is nothing to do.</p>
<p style="padding:12px 16px;background:#fef3c7;border-radius:6px">${escapeHtml(NOT_YOU)}</p>
<p><a href="${escapeHtml(input.securityUrl)}" style="display:inline-block;padding:10px 18px;background:#1e3a8a;color:#ffffff;border-radius:6px;text-decoration:none">Open your Security page</a></p>`,
  );
  return { subject, text, html };
}

/**
 * Every active super admin is told when Readiness disabled a webhook endpoint that answered nothing but failures for
 * the give-up time: which one, since when, its last answer, and where to enable it again.
 */
export function webhookEndpointDisabled(input: {
  name: string;
  url: string;
  description: string;
  failingSince: Date | undefined;
  disabledAt: Date;
  /** The last try's HTTP status; 0: it got no answer. */
  lastStatus: number;
  lastAnswer: string;
  webhooksUrl: string;
}): RenderedMail {
  const subject = 'A webhook endpoint was disabled after failing';
  const since = input.failingSince ? adminMoment(input.failingSince) : undefined;
  // The description is the admins' own words: set apart, like a name.
  const stopped = (url: string, isolate: (s: string) => string) =>
    `${PRODUCT} stopped sending events to the webhook endpoint ${url}${input.description ? ` (${isolate(input.description)})` : ''} on ${adminMoment(input.disabledAt)}` +
    (since ? `: it had answered nothing but failures since ${since}.` : ': it kept failing.');
  const last = input.lastStatus
    ? `The last answer was HTTP ${input.lastStatus}:`
    : 'The last try got no answer:';
  const answer = input.lastAnswer.trim() || '(empty)';
  const meanwhile =
    'Events that happen while it is disabled are not sent to it. Once the receiving system works again, enable the endpoint on the Webhooks screen; deliveries that were given up can be sent again from its delivery log.';
  const why = 'You receive this mail because you are a super administrator.';
  const text = [
    `Hello ${isolateText(input.name)},`,
    '',
    stopped(input.url, isolateText),
    '',
    last,
    answer,
    '',
    meanwhile,
    '',
    `The Webhooks screen: ${input.webhooksUrl}`,
    '',
    why,
  ].join('\n');
  const html = layout(
    mailTranslator('en'),
    subject,
    `<p>Hello ${isolateHtml(input.name)},</p>
<p>${stopped(`<strong style="word-break:break-all">${escapeHtml(input.url)}</strong>`, isolateHtml)}</p>
<p>${last}</p>
<pre style="white-space:pre-wrap;word-break:break-all;padding:12px 16px;background:#f3f4f6;border-radius:6px;font-size:13px">${escapeHtml(answer)}</pre>
<p>${escapeHtml(meanwhile)}</p>
<p><a href="${escapeHtml(input.webhooksUrl)}" style="display:inline-block;padding:10px 18px;background:#1e3a8a;color:#ffffff;border-radius:6px;text-decoration:none">Open the Webhooks screen</a></p>
<p style="color:#6b7280">${why}</p>`,
  );
  return { subject, text, html };
}

/** The time limit with extra time, as the timer will start it: 30 minutes + 25% is '37 minutes 30 seconds'. */
function ownTime(t: MailTranslator, minutes: number, extraPercent: number): string {
  const seconds = Math.round(minutes * 60 * (1 + extraPercent / 100));
  const whole = unit(t, Math.floor(seconds / 60), 'minute');
  const rest = seconds % 60;
  return rest ? t.text('invitation.duration', { minutes: whole, seconds: unit(t, rest, 'second') }) : whole;
}

const unit = (t: MailTranslator, value: number, name: 'minute' | 'second') =>
  t.number(value, { style: 'unit', unit: name, unitDisplay: 'long' });

/** A percentage the language's way (`69.5%`, `69,5 %`), with the decimal `shownPercentage` gives it, if any. */
const percent = (t: MailTranslator, value: number) =>
  t.number(value / 100, { style: 'percent', maximumFractionDigits: 1 });

/** The attributes that keep an address or a code left to right inside a right-to-left sentence. */
const ltr = (t: MailTranslator) => (t.dir === 'rtl' ? ' dir="ltr"' : '');

/**
 * When the link stops working, written for people in the mail's language: 'Sunday, January 31, 2027 at 12:00 PM UTC'.
 * In UTC, named so: the product has no time zone of its own to give, and the student's is not known.
 */
const expiryDate = (t: MailTranslator, date: Date) =>
  t.date(date, {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'UTC',
    timeZoneName: 'short',
  });

export function studentInvitation(input: {
  name: string;
  invitationUrl: string;
  /** Empty when the student service knew no assessment yet: the mail stays generic. */
  assessmentTitle: string;
  timeLimitMinutes: number;
  /** Extra time granted to this student, in percent: the mail states their own limit. */
  extraTimePercent?: number;
  expiresAt: Date | undefined;
  /** Whom to ask (MAIL_CONTACT); without one, the administrator who invited the student. */
  contact?: string;
  resent: boolean;
  /** The student's language, as the event carries it: empty or unknown is English. */
  language?: string;
}): RenderedMail {
  const t = mailTranslator(input.language);
  const assessment = { titled: input.assessmentTitle ? 'yes' : 'no', title: input.assessmentTitle };
  const subject = input.resent
    ? t.text('invitation.subject.resent', { product: PRODUCT })
    : t.text('invitation.subject', assessment);
  const extra = input.extraTimePercent ?? 0;
  const limit = unit(t, input.timeLimitMinutes, 'minute');
  const [timeId, timeValues]: [MailMessage, MessageValues] =
    input.timeLimitMinutes > 0
      ? extra > 0
        ? [
            'invitation.time.extra',
            { ownTime: ownTime(t, input.timeLimitMinutes, extra), extra: percent(t, extra), limit },
          ]
        : ['invitation.time.limit', { limit }]
      : ['invitation.time.none', {}];
  const [expiryId, expiryValues]: [MailMessage, MessageValues] = input.expiresAt
    ? ['invitation.valid', { expiresAt: expiryDate(t, input.expiresAt) }]
    : ['invitation.personal', {}];
  const [contactId, contactValues]: [MailMessage, MessageValues] = input.contact
    ? ['invitation.contact', { contact: input.contact }]
    : ['invitation.contact.inviter', {}];
  const intro = { ...assessment, product: PRODUCT };
  const text = [
    t.text('mail.greeting', { name: isolated(input.name) }),
    '',
    t.text('invitation.intro', intro),
    t.text(timeId, timeValues),
    '',
    t.text('invitation.open', { url: input.invitationUrl }),
    '',
    t.text(expiryId, expiryValues),
    '',
    t.text(contactId, contactValues),
  ].join('\n');
  const html = layout(
    t,
    subject,
    `<p>${t.html('mail.greeting', { name: isolated(input.name) })}</p>
<p>${t.html('invitation.intro', intro)}</p>
<p>${t.html(timeId, timeValues)}</p>
<p><a href="${escapeHtml(input.invitationUrl)}" style="display:inline-block;padding:10px 18px;background:#1e3a8a;color:#ffffff;border-radius:6px;text-decoration:none">${t.html('invitation.open.button')}</a></p>
<p style="font-size:13px;color:#6b7280">${t.html('invitation.copy')} <span${ltr(t)} style="word-break:break-all">${escapeHtml(input.invitationUrl)}</span></p>
<p>${t.html(expiryId, expiryValues)}</p>
<p style="color:#6b7280">${t.html(contactId, contactValues)}</p>`,
  );
  return { subject, text, html };
}

export function certificateIssued(input: {
  name: string;
  assessmentTitle: string;
  percentage: number;
  code: string;
  verificationUrl: string;
  /** The certificate as an Open Badges credential; empty from an older publisher, and then not offered. */
  credentialUrl?: string;
  resent: boolean;
  /** The certificate's language, as the event carries it: empty or unknown is English. */
  language?: string;
}): RenderedMail {
  const t = mailTranslator(input.language);
  const assessment = { titled: input.assessmentTitle ? 'yes' : 'no', title: input.assessmentTitle };
  const subject = t.text(input.resent ? 'certificate.subject.resent' : 'certificate.subject', assessment);
  const [whatId, whatValues]: [MailMessage, MessageValues] = input.resent
    ? ['certificate.resent', assessment]
    : ['certificate.passed', { ...assessment, score: percent(t, input.percentage) }];
  const text = [
    t.text('mail.greeting', { name: isolated(input.name) }),
    '',
    t.text(whatId, whatValues),
    '',
    t.text('certificate.attached'),
    '',
    t.text('certificate.verify', { url: input.verificationUrl, code: input.code }),
    '',
    ...(input.credentialUrl ? [t.text('certificate.openBadge', { url: input.credentialUrl }), ''] : []),
    t.text('certificate.wishes'),
  ].join('\n');
  const html = layout(
    t,
    subject,
    `<p>${t.html('mail.greeting', { name: isolated(input.name) })}</p>
<p>${t.html(whatId, whatValues)}</p>
<p>${t.html('certificate.attached')}</p>
<p style="padding:12px 16px;background:#eef2ff;border-radius:6px">${t.html('certificate.code')} <strong${ltr(t)} style="letter-spacing:0.06em">${escapeHtml(input.code)}</strong><br>
<a href="${escapeHtml(input.verificationUrl)}"${ltr(t)} style="color:#1e3a8a;word-break:break-all">${escapeHtml(input.verificationUrl)}</a></p>
<p>${t.html('certificate.verify.there')}</p>
${input.credentialUrl ? `<p>${t.html('certificate.openBadge.html')}<br><a href="${escapeHtml(input.credentialUrl)}"${ltr(t)} style="color:#1e3a8a;word-break:break-all">${escapeHtml(input.credentialUrl)}</a></p>\n` : ''}<p>${t.html('certificate.wishes')}</p>`,
  );
  return { subject, text, html };
}
