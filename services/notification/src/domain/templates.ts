/**
 * Mail templates: every mail has an HTML body in the shared layout and a plain-text twin with the same
 * content. Every value from data is escaped before it reaches HTML.
 */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const PRODUCT = 'Readiness';

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function layout(title: string, bodyHtml: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:16px 8px;background:#f4f6fb;font-family:Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#1f2937">
  <table role="presentation" width="100%" cellspacing="0" cellpadding="0" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;border:1px solid #e5e7eb">
    <tr><td style="padding:20px 28px;border-bottom:1px solid #e5e7eb;font-size:18px;font-weight:600;color:#1e3a8a">${PRODUCT}</td></tr>
    <tr><td style="padding:28px;font-size:15px;line-height:1.6">${bodyHtml}</td></tr>
    <tr><td style="padding:16px 28px;border-top:1px solid #e5e7eb;font-size:12px;color:#6b7280">This message was sent by ${PRODUCT}, the distance-education readiness assessment. Please do not reply to it.</td></tr>
  </table>
</body>
</html>`;
}

export function adminPasswordReset(input: {
  name: string;
  temporaryPassword: string;
  loginUrl: string;
}): RenderedMail {
  const subject = `Your ${PRODUCT} admin password was reset`;
  const text = [
    `Hello ${input.name},`,
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
    subject,
    `<p>Hello ${escapeHtml(input.name)},</p>
<p>A super administrator reset your password for the ${PRODUCT} admin portal.</p>
<p>Temporary password: <code style="font-size:16px;padding:4px 8px;background:#eef2ff;border-radius:4px">${escapeHtml(input.temporaryPassword)}</code></p>
<p><a href="${escapeHtml(input.loginUrl)}" style="display:inline-block;padding:10px 18px;background:#1e3a8a;color:#ffffff;border-radius:6px;text-decoration:none">Sign in</a></p>
<p>You will be asked to choose a new password before you can continue.</p>
<p style="color:#6b7280">If you did not expect this, contact your system administrator.</p>`,
  );
  return { subject, text, html };
}

/** A limit with extra time, as the timer will start it: 30 minutes + 25% is '37 minutes 30 seconds'. */
function ownTime(minutes: number, extraPercent: number): string {
  const seconds = Math.round(minutes * 60 * (1 + extraPercent / 100));
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  const rest = seconds % 60;
  return plural(Math.floor(seconds / 60), 'minute') + (rest ? ` ${plural(rest, 'second')}` : '');
}

export function studentInvitation(input: {
  name: string;
  invitationUrl: string;
  /** Empty when the student service knew no assessment yet: the mail stays generic. */
  assessmentTitle: string;
  timeLimitMinutes: number;
  /** Extra time granted to this student, in percent: the mail states their own limit. */
  extraTimePercent?: number;
  expiresAt: Date | undefined;
  contact: string;
  resent: boolean;
}): RenderedMail {
  const what = input.assessmentTitle ? `the ${input.assessmentTitle}` : 'the readiness assessment';
  const subject = input.resent
    ? `Reminder: your ${PRODUCT} assessment invitation`
    : `You are invited to take ${what}`;
  const extra = input.extraTimePercent ?? 0;
  const time =
    input.timeLimitMinutes > 0
      ? extra > 0
        ? `You have ${ownTime(input.timeLimitMinutes, extra)}, which includes your ${extra}% extra time (${input.timeLimitMinutes} minutes for everyone); the timer starts only when you press Start.`
        : `It takes at most ${input.timeLimitMinutes} minutes; the timer starts only when you press Start.`
      : 'The timer starts only when you press Start.';
  const expiry = input.expiresAt
    ? `The link is personal and stays valid until ${input.expiresAt.toUTCString()} unless you start before.`
    : 'The link is personal: do not share it.';
  const text = [
    `Hello ${input.name},`,
    '',
    `You are invited to take ${what} with ${PRODUCT}, to see how ready you are for distance education.`,
    time,
    '',
    `Open your assessment: ${input.invitationUrl}`,
    '',
    expiry,
    '',
    `Questions? Contact ${input.contact}.`,
  ].join('\n');
  const html = layout(
    subject,
    `<p>Hello ${escapeHtml(input.name)},</p>
<p>You are invited to take ${escapeHtml(what)} with ${PRODUCT}, to see how ready you are for distance education.</p>
<p>${escapeHtml(time)}</p>
<p><a href="${escapeHtml(input.invitationUrl)}" style="display:inline-block;padding:10px 18px;background:#1e3a8a;color:#ffffff;border-radius:6px;text-decoration:none">Open your assessment</a></p>
<p style="font-size:13px;color:#6b7280">Or copy this link into your browser: <span style="word-break:break-all">${escapeHtml(input.invitationUrl)}</span></p>
<p>${escapeHtml(expiry)}</p>
<p style="color:#6b7280">Questions? Contact ${escapeHtml(input.contact)}.</p>`,
  );
  return { subject, text, html };
}

export function certificateIssued(input: {
  name: string;
  assessmentTitle: string;
  percentage: number;
  code: string;
  verificationUrl: string;
  resent: boolean;
}): RenderedMail {
  const what = input.assessmentTitle || 'the readiness assessment';
  const subject = input.resent
    ? `Your certificate for ${what} (sent again)`
    : `Congratulations! Your certificate for ${what}`;
  const text = [
    `Hello ${input.name},`,
    '',
    input.resent
      ? `As requested, here is your certificate for ${what} again.`
      : `Congratulations on passing ${what} with a score of ${input.percentage}%!`,
    '',
    'Your certificate is attached to this message as a PDF. Keep it for your records.',
    '',
    `Anyone can check that it is genuine at ${input.verificationUrl} (verification code ${input.code}).`,
    '',
    `We wish you every success in your studies.`,
  ].join('\n');
  const html = layout(
    subject,
    `<p>Hello ${escapeHtml(input.name)},</p>
<p>${
      input.resent
        ? `As requested, here is your certificate for <strong>${escapeHtml(what)}</strong> again.`
        : `Congratulations on passing <strong>${escapeHtml(what)}</strong> with a score of <strong>${input.percentage}%</strong>!`
    }</p>
<p>Your certificate is attached to this message as a PDF. Keep it for your records.</p>
<p style="padding:12px 16px;background:#eef2ff;border-radius:6px">Verification code: <strong style="letter-spacing:0.06em">${escapeHtml(input.code)}</strong><br>
<a href="${escapeHtml(input.verificationUrl)}" style="color:#1e3a8a;word-break:break-all">${escapeHtml(input.verificationUrl)}</a></p>
<p>Anyone you show it to can check there that it is genuine.</p>
<p>We wish you every success in your studies.</p>`,
  );
  return { subject, text, html };
}
