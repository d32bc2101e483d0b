import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { createJwtVerifier } from '@readiness/kit/auth';
import { eventually, signTestJwt } from '@readiness/testing';
import {
  deliveryRows,
  invitationEvent,
  startNotification,
  studentDeletedEvent,
  type Harness,
} from './harness';

jest.setTimeout(60_000);

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const kid = randomUUID();
const adminVerifier = createJwtVerifier({
  publicKeys: [{ kid, key: publicKey }],
  issuer: 'iss',
  audience: 'aud',
});
const token = () =>
  signTestJwt({ role: 'admin', sid: randomUUID() }, privateKey, {
    kid,
    subject: randomUUID(),
    jwtid: randomUUID(),
    issuer: 'iss',
    audience: 'aud',
    expiresIn: 600,
  });

const deliveriesOf = async (h: Harness, ids: string[]) => {
  const res = await fetch(`${h.service.url}/api/admin/notifications/deliveries?studentIds=${ids.join(',')}`, {
    headers: { authorization: `Bearer ${token()}` },
  });
  expect(res.status).toBe(200);
  return (
    (await res.json()) as { deliveries: Array<{ studentId: string; status: string; reason: string | null }> }
  ).deliveries;
};

describe.each(['real', 'embedded'] as const)('invitation mail (%s infrastructure)', (kind) => {
  // One service a bus for the file's tests: each mails an address of its own.
  let h: Harness;
  beforeAll(async () => {
    h = await startNotification(kind, { adminVerifier });
  });
  afterAll(() => h.close());

  test('when a student is invited, then the mail with the link, the assessment and whom to contact arrives, and the delivery reads sent', async () => {
    const studentId = randomUUID();
    const url = `https://readiness.example.edu/assessment/${randomUUID()}`;
    await h.bus.publish([
      invitationEvent({ studentId, name: 'Ada <Lovelace>', url, title: 'Distance Learning Readiness' }),
    ]);
    const mail = await h.catcher.waitFor((m) => m.to.includes('ada@example.edu'), 10_000);
    expect(mail.subject).toBe('You are invited to take the Distance Learning Readiness');
    expect(mail.text).toContain(`Open your assessment: ${url}`);
    expect(mail.text).toContain('at most 30 minutes');
    expect(mail.text).toContain('Contact the administrator who invited you');
    // The link's expiry (60 days on) as people write a date, not as an HTTP header does.
    expect(mail.text).toMatch(
      /stays valid until (Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), [A-Z][a-z]+ \d{1,2}, \d{4} at \d{2}:\d{2} [AP]M UTC unless/,
    );
    expect(mail.text).not.toContain('GMT');
    expect(mail.html).toContain(`href="${url}"`);
    expect(mail.html).toContain('Ada &lt;Lovelace&gt;');
    const [d] = await eventually(async () => {
      const r = await deliveriesOf(h, [studentId]);
      return r[0]?.status === 'sent' ? r : false;
    });
    expect(d).toMatchObject({ studentId, kind: 'invitation', status: 'sent', reason: null });
    // The link is a secret: the delivery log never holds it.
    expect(JSON.stringify(await deliveryRows(h.database))).not.toContain(url);
  });

  test('when the student has extra time, then the mail states their own time limit and that it includes it', async () => {
    await h.bus.publish([
      invitationEvent({
        email: 'grace@example.edu',
        title: 'Distance Learning Readiness',
        extraTimePercent: 25,
      }),
    ]);
    const mail = await h.catcher.waitFor((m) => m.to.includes('grace@example.edu'), 10_000);
    expect(mail.text).toContain(
      'You have 37 minutes 30 seconds, which includes your 25% extra time (30 minutes for everyone)',
    );
    expect(mail.text).not.toContain('at most 30 minutes');
  });

  test('when the student is deleted, then their mail log is erased', async () => {
    const studentId = randomUUID();
    await h.bus.publish([invitationEvent({ studentId, email: 'erased@example.edu' })]);
    await eventually(async () => (await deliveriesOf(h, [studentId]))[0]?.status === 'sent', 'the mail');
    await h.bus.publish([studentDeletedEvent(studentId, 'erased@example.edu')]);
    await eventually(async () => (await deliveriesOf(h, [studentId])).length === 0, 'the erasure');
    expect(JSON.stringify(await deliveryRows(h.database))).not.toContain('erased@example.edu');
  });
});

describe('invitation mail in the student’s language', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startNotification('embedded', { adminVerifier });
  });
  afterAll(() => h.close());

  test('when a student invited in Arabic is sent the invitation and then its reminder, then both arrive in Arabic, right to left', async () => {
    const url = `https://readiness.example.edu/assessment/${randomUUID()}`;
    await h.bus.publish([
      invitationEvent({
        email: 'layla@example.edu',
        name: 'ليلى حسن',
        url,
        title: 'Distance Learning Readiness',
        language: 'ar',
      }),
    ]);
    const mail = await h.catcher.waitFor((m) => m.to.includes('layla@example.edu'), 10_000);
    expect(mail.subject).toBe('دعوة لأداء تقييم «Distance Learning Readiness»');
    expect(mail.text).toContain('مرحبًا \u2068ليلى حسن\u2069،');
    expect(mail.text).toContain(`للدخول إلى التقييم: ${url}`);
    expect(mail.html).toMatch(/<html lang="ar" dir="rtl">/);
    expect(mail.html).toContain(`href="${url}"`);

    await h.bus.publish([invitationEvent({ email: 'layla@example.edu', url, language: 'ar', resent: true })]);
    const reminder = await h.catcher.waitFor((m) => m.subject.startsWith('تذكير'), 10_000);
    expect(reminder.subject).toBe('تذكير: دعوتك إلى التقييم على Readiness');
    expect(reminder.html).toMatch(/<html lang="ar" dir="rtl">/);
  });

  test('when the event names the assessment in the student’s language, then the invitation and its reminder name it so, and no English title is left', async () => {
    const title = 'الاستعداد للتعلم عن بعد';
    const url = `https://readiness.example.edu/assessment/${randomUUID()}`;
    const arabic = { email: 'amina@example.edu', url, title: 'Distance Learning Readiness', language: 'ar' };
    await h.bus.publish([invitationEvent({ ...arabic, localizedTitle: title })]);
    const mail = await h.catcher.waitFor((m) => m.to.includes('amina@example.edu'), 10_000);
    expect(mail.subject).toBe(`دعوة لأداء تقييم «${title}»`);
    expect(mail.text).toContain(`«${title}»`);
    expect(mail.html).toContain(title);
    expect(`${mail.subject}${mail.text}${mail.html}`).not.toContain('Distance Learning Readiness');

    await h.bus.publish([invitationEvent({ ...arabic, localizedTitle: title, resent: true })]);
    const reminder = await h.catcher.waitFor(
      (m) => m.to.includes('amina@example.edu') && m.subject.startsWith('تذكير'),
      10_000,
    );
    expect(reminder.text).toContain(`«${title}»`);
    expect(reminder.html).toContain(title);
    expect(`${reminder.text}${reminder.html}`).not.toContain('Distance Learning Readiness');

    const spanishTitle = 'Preparación para la educación a distancia';
    await h.bus.publish([
      invitationEvent({
        email: 'lucia@example.edu',
        title: 'Distance Learning Readiness',
        language: 'es',
        localizedTitle: spanishTitle,
      }),
    ]);
    const spanish = await h.catcher.waitFor((m) => m.to.includes('lucia@example.edu'), 10_000);
    expect(spanish.subject).toBe(`Le invitamos a realizar la evaluación «${spanishTitle}»`);
    expect(spanish.text).toContain(`la evaluación «${spanishTitle}» en Readiness`);
    expect(`${spanish.subject}${spanish.text}${spanish.html}`).not.toContain('Distance Learning Readiness');
  });

  test('when an older student service sends no localized title, then the mail names the assessment by its English title', async () => {
    await h.bus.publish([
      invitationEvent({ email: 'older@example.edu', title: 'Distance Learning Readiness', language: 'es' }),
      invitationEvent({
        email: 'older-reminded@example.edu',
        title: 'Distance Learning Readiness',
        language: 'ar',
        resent: true,
      }),
    ]);
    const mail = await h.catcher.waitFor((m) => m.to.includes('older@example.edu'), 10_000);
    expect(mail.subject).toBe('Le invitamos a realizar la evaluación «Distance Learning Readiness»');
    const reminder = await h.catcher.waitFor((m) => m.to.includes('older-reminded@example.edu'), 10_000);
    expect(reminder.text).toContain('«Distance Learning Readiness»');
  });

  test('when a student invited in French is reminded, then the reminder is French', async () => {
    await h.bus.publish([invitationEvent({ email: 'zoe@example.edu', language: 'fr', resent: true })]);
    const mail = await h.catcher.waitFor((m) => m.to.includes('zoe@example.edu'), 10_000);
    expect(mail.subject).toBe('Rappel\u00a0: votre invitation à l’évaluation Readiness');
    expect(mail.text).toContain('Bonjour \u2068Ada Lovelace\u2069,');
    expect(mail.html).toMatch(/<html lang="fr">/);
  });
});

test('when the SMTP server never takes the invitation, then the delivery reads failed with the reason', async () => {
  const h = await startNotification('embedded', { maxAttempts: 2, adminVerifier });
  try {
    h.smtpProxy.cut();
    const studentId = randomUUID();
    await h.bus.publish([invitationEvent({ studentId })]);
    const [d] = await eventually(async () => {
      const r = await deliveriesOf(h, [studentId]);
      return r[0]?.status === 'failed' ? r : false;
    });
    expect(d!.reason).toMatch(/temporarily unavailable/);
  } finally {
    await h.close();
  }
});
