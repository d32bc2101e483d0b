import { LANGUAGES } from '@readiness/contracts';
import { adminPasswordReset, certificateIssued, studentInvitation } from '../src/domain/templates';
import before from './fixtures/english-mails-before-i18n.json';

const when = new Date('2027-01-31T12:00:00Z');
const url = 'https://readiness.example.edu/assessment/tok?a=1&b=2';
const verificationUrl = 'https://readiness.example.edu/verify/RDY-7K3F-92QX';

/**
 * A mail as it was before names were set apart from their sentence (issue 43 item 4: `<bdi>` in HTML, U+2068 …
 * U+2069 in text; mail-names.isolated.test.ts holds that): everything else must stay byte for byte.
 */
const unisolated = (mail: { subject: string; text: string; html: string }) => ({
  subject: mail.subject,
  text: mail.text.replace(/[\u2068\u2069]/g, ''),
  html: mail.html.replace(/<\/?bdi>/g, ''),
});

/**
 * The inputs the English mails of the fixture were rendered from, before the mails had other languages. Two
 * corrections since (issue 43 item 21): a titled certificate mail names "the" assessment as the invitation does, and
 * the link's expiry is written for people, no longer as an HTTP date.
 */
const englishCases = {
  'invitation titled': () =>
    studentInvitation({
      name: 'Ada <Lovelace> & "Co"',
      invitationUrl: url,
      assessmentTitle: 'Distance Learning Readiness',
      timeLimitMinutes: 30,
      extraTimePercent: 0,
      expiresAt: when,
      resent: false,
    }),
  'invitation untitled unlimited no expiry': () =>
    studentInvitation({
      name: 'Grace',
      invitationUrl: 'https://x.test/a/b',
      assessmentTitle: '',
      timeLimitMinutes: 0,
      expiresAt: undefined,
      contact: 'admissions@example.edu',
      resent: false,
    }),
  'invitation extra time': () => extraTime(30, 25),
  'invitation extra time whole minutes': () => extraTime(45, 100),
  'invitation extra time one second': () => extraTime(2, 1),
  'invitation resent': () =>
    studentInvitation({
      name: 'Grace',
      invitationUrl: 'https://x.test/a/b',
      assessmentTitle: 'Online Study Skills',
      timeLimitMinutes: 20,
      extraTimePercent: 0,
      expiresAt: when,
      contact: 'Admissions Office <admissions@example.edu>',
      resent: true,
    }),
  'certificate issued': () => certificate({ name: 'Grace <Hopper>', percentage: 92 }),
  'certificate untitled': () => certificate({ assessmentTitle: '', percentage: 100 }),
  'certificate resent': () => certificate({ percentage: 71, resent: true }),
};

function extraTime(timeLimitMinutes: number, extraTimePercent: number, language?: string) {
  return studentInvitation({
    name: 'Grace',
    invitationUrl: 'https://x.test/a/b',
    assessmentTitle: 'Online Study Skills',
    timeLimitMinutes,
    extraTimePercent,
    expiresAt: when,
    resent: false,
    language,
  });
}

function certificate(
  overrides: Partial<Parameters<typeof certificateIssued>[0]> = {},
): ReturnType<typeof certificateIssued> {
  return certificateIssued({
    name: 'Grace',
    assessmentTitle: 'Distance Learning Readiness',
    percentage: 92,
    code: 'RDY-7K3F-92QX',
    verificationUrl,
    resent: false,
    ...overrides,
  });
}

describe('English, the language of a student without one', () => {
  test.each(Object.keys(englishCases) as Array<keyof typeof englishCases>)(
    'when the %s mail is written without a language, then it is the English mail of before, byte for byte',
    (name) => {
      expect(unisolated(englishCases[name]())).toEqual(before[name]);
    },
  );

  test('when an administrator’s password reset mail is written, then it is the English mail of before, byte for byte', () => {
    expect(
      unisolated(
        adminPasswordReset({
          name: 'Grace <Hopper>',
          temporaryPassword: 'kV8#q2-Lm9!zT4',
          loginUrl: 'https://readiness.example.edu/admin/login',
        }),
      ),
    ).toEqual(before['password reset']);
  });

  test.each(['', 'en', 'xx', 'EN'])(
    'when the language is %j, then the mail is the English one',
    (language) => {
      expect(unisolated(certificate({ name: 'Grace <Hopper>', language }))).toEqual(
        before['certificate issued'],
      );
      expect(unisolated(extraTime(30, 25, language))).toEqual(before['invitation extra time']);
    },
  );
});

describe.each(LANGUAGES.filter((l) => l !== 'en'))('mails in %s', (language) => {
  const invitation = studentInvitation({
    name: 'Zoë Ångström-Núñez',
    invitationUrl: url,
    assessmentTitle: 'Distance Learning Readiness',
    timeLimitMinutes: 30,
    extraTimePercent: 25,
    expiresAt: when,
    resent: false,
    language,
  });
  const reminder = studentInvitation({
    name: 'Zoë',
    invitationUrl: url,
    assessmentTitle: '',
    timeLimitMinutes: 0,
    expiresAt: undefined,
    resent: true,
    language,
  });
  const issued = certificate({ name: 'Zoë Ångström-Núñez', language });
  const resent = certificate({ name: 'Zoë', language, resent: true });

  test('when each student mail is written, then subject, text and HTML are all in the language, with no English sentence left', () => {
    for (const mail of [invitation, reminder, issued, resent]) {
      expect(mail.html).toMatch(new RegExp(`^<!doctype html>\\n<html lang="${language}"`));
      for (const english of [
        'Hello',
        'You are invited',
        'the timer starts',
        'Open your assessment',
        'Questions?',
        'Congratulations',
        'Your certificate',
        'This message was sent',
        'We wish you',
      ]) {
        expect(`${mail.subject}\n${mail.text}\n${mail.html}`).not.toContain(english);
      }
    }
    // The student's values, escaped in HTML and whole in text.
    expect(invitation.text).toContain('Zoë Ångström-Núñez');
    expect(invitation.text).toContain(url);
    expect(invitation.html).toContain('href="https://readiness.example.edu/assessment/tok?a=1&amp;b=2"');
    expect(issued.text).toContain(verificationUrl);
    expect(issued.text).toContain('RDY-7K3F-92QX');
  });
});

describe('the words of each language', () => {
  test('when the English mails are written, then a titled certificate names "the" assessment and the expiry reads as a date for people', () => {
    const issued = certificate();
    expect(issued.subject).toBe('Congratulations! Your certificate for the Distance Learning Readiness');
    expect(issued.text).toContain(
      'Congratulations on passing the Distance Learning Readiness with a score of 92%!',
    );
    expect(certificate({ resent: true }).text).toContain(
      'As requested, here is your certificate for the Distance Learning Readiness again.',
    );
    const invitation = extraTime(30, 25);
    expect(invitation.text).toContain(
      'The link is personal and stays valid until Sunday, January 31, 2027 at 12:00 PM UTC unless you start before.',
    );
    expect(invitation.html).not.toContain('GMT');
  });

  /** Intl's spacing before % and the catalogues' before « : ! » (no-break or narrow no-break) as plain spaces. */
  const spaced = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

  test('when the mails are written in Spanish, French and Portuguese, then their sentences, dates, durations and percentages are the language’s', () => {
    expect(spaced(extraTime(30, 25, 'es').text)).toContain(
      'Dispone de 37 minutos y 30 segundos, lo que incluye su 25 % de tiempo adicional (30 minutos con carácter general)',
    );
    expect(extraTime(30, 25, 'es').text).toContain('hasta el domingo, 31 de enero de 2027, 12:00 UTC');
    expect(certificate({ language: 'es' }).subject).toBe(
      '¡Enhorabuena! Su certificado de «Distance Learning Readiness»',
    );
    expect(spaced(extraTime(30, 25, 'fr').text)).toContain(
      'Vous disposez de 37 minutes et 30 secondes, temps supplémentaire de 25 % compris (30 minutes en temps normal)',
    );
    expect(extraTime(30, 25, 'fr').text).toContain('jusqu’au dimanche 31 janvier 2027 à 12:00 UTC');
    expect(spaced(certificate({ language: 'fr' }).text)).toContain(
      'Félicitations pour votre réussite à « Distance Learning Readiness » avec un résultat de 92 % !',
    );
    expect(certificate({ language: 'pt', assessmentTitle: '' }).text).toContain(
      'Parabéns pela aprovação na avaliação de preparação com pontuação de 92%!',
    );
    expect(certificate({ language: 'pt', assessmentTitle: '' }).html).toContain(
      'Parabéns pela aprovação na <strong>avaliação de preparação</strong> com pontuação de <strong>92%</strong>!',
    );
    expect(extraTime(1, 50, 'pt').text).toContain('Você tem 1 minuto e 30 segundos');
  });

  test('when the mails are written in Arabic, then they read right to left, in Arabic, with Western digits', () => {
    const invitation = extraTime(30, 25, 'ar');
    expect(invitation.subject).toBe('دعوة لأداء تقييم «Online Study Skills»');
    expect(invitation.html).toMatch(/^<!doctype html>\n<html lang="ar" dir="rtl">/);
    expect(invitation.html).toContain('<table role="presentation" dir="rtl"');
    expect(invitation.text).toContain('مرحبًا \u2068Grace\u2069،');
    expect(invitation.text).toContain('لديك 37 دقيقة و30 ثانية، بما في ذلك وقتك الإضافي البالغ 25');
    expect(invitation.text).toContain('(المدة المعتادة 30 دقيقة)');
    expect(invitation.text).toContain('حتى الأحد، 31 يناير 2027');
    expect(invitation.text).toContain('يُرجى التواصل مع الشخص الذي أرسل إليك الدعوة.');
    // The address stays left to right inside the right-to-left sentence.
    expect(invitation.html).toContain(
      '<span dir="ltr" style="word-break:break-all">https://x.test/a/b</span>',
    );
    const issued = certificate({ language: 'ar', name: 'ليلى حسن' });
    expect(issued.subject).toBe('تهانينا! شهادتك لاجتياز «Distance Learning Readiness»');
    expect(issued.text).toMatch(
      /^مرحبًا \u2068ليلى حسن\u2069،\n\nتهانينا على اجتيازك «Distance Learning Readiness» بنتيجة 92/,
    );
    expect(issued.html).toContain('<strong dir="ltr" style="letter-spacing:0.06em">RDY-7K3F-92QX</strong>');
  });
});
