import { randomUUID } from 'node:crypto';
import { eventually } from '@readiness/testing';
import { issuedV2, pdfOf, sha256, store } from './certificate-events';
import { deliveryRows, startNotification, type Harness } from './harness';

jest.setTimeout(60_000);

const mailsTo = (h: Harness, email: string) => h.catcher.list().filter((m) => m.to.includes(email));

async function deliveryOf(h: Harness, eventId: string) {
  return (await deliveryRows(h.database)).find((r) => r.event_id === eventId);
}

describe('certificate mail', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startNotification('embedded');
  });
  afterAll(() => h.close());

  test('when a certificate is issued and the event arrives three times, then one friendly mail carries the stored PDF', async () => {
    const pdf = pdfOf('Grace');
    const event = issuedV2({ pdf });
    await store(h, event.objectKey, pdf);
    await h.bus.publish([event]);
    await h.bus.publish([event]);
    await h.bus.publish([event]);
    const mail = await h.catcher.waitFor((m) => m.subject.startsWith('Congratulations'), 10_000);
    expect(mail.subject).toBe('Congratulations! Your certificate for the Distance Learning Readiness');
    expect(mail.text).toContain('with a score of 92%');
    expect(mail.text).toContain('https://readiness.example.edu/verify/RDY-7K3F-92QX');
    // The Open Badge is a link, not a second attachment.
    expect(mail.text).toContain(
      "Your certificate is also an Open Badge, a signed credential that digital wallets and employers' systems read: https://readiness.example.edu/api/verify/RDY-7K3F-92QX/credential",
    );
    expect(mail.html).toContain('href="https://readiness.example.edu/api/verify/RDY-7K3F-92QX/credential"');
    expect(mail.html).toContain('Grace &lt;Hopper&gt;');
    expect(mail.attachments).toEqual([
      {
        filename: 'certificate-Grace-Hopper.pdf',
        contentType: 'application/pdf',
        size: pdf.length,
        sha256: sha256(pdf),
      },
    ]);
    await eventually(async () => (await deliveryOf(h, event.id))?.status === 'sent');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(h.catcher.list().filter((m) => m.subject.startsWith('Congratulations'))).toHaveLength(1);
    expect((await deliveryRows(h.database)).filter((r) => r.template === 'certificate-issued')).toHaveLength(
      1,
    );
  });

  test.each([
    { score: 139, totalPoints: 200, language: 'en', words: 'with a score of 69.5%' },
    { score: 1399, totalPoints: 2000, language: 'en', words: 'with a score of 69.9%' },
    { score: 7, totalPoints: 10, language: 'en', words: 'with a score of 70%' },
    { score: 1799, totalPoints: 2000, language: 'en', words: 'with a score of 89.9%' },
    { score: 139, totalPoints: 200, language: 'fr', words: '69,5\u00a0%' },
  ])(
    'when a certificate of $score of $totalPoints points is mailed in $language, then the mail reads $words, never the rounded whole percent',
    async ({ score, totalPoints, language, words }) => {
      const email = `${score}.of.${totalPoints}.${language}@example.edu`;
      const pdf = pdfOf('Grace');
      const event = issuedV2({ pdf, email, score, totalPoints, language });
      await store(h, event.objectKey, pdf);
      await h.bus.publish([event]);
      const mail = await h.catcher.waitFor((m) => m.to.includes(email), 10_000);
      expect(mail.text).toContain(words);
    },
  );

  test('when a resend is asked, then the mail says it is sent again', async () => {
    const pdf = pdfOf('a resend');
    const event = issuedV2({ pdf, resend: true, email: 'resent@example.edu' });
    await store(h, event.objectKey, pdf);
    await h.bus.publish([event]);
    const mail = await h.catcher.waitFor((m) => m.subject.includes('(sent again)'), 10_000);
    expect(mail.text).toContain('As requested, here is your certificate');
    expect(mail.attachments).toMatchObject([{ sha256: sha256(pdf) }]);
  });

  test('when a certificate is issued in Portuguese and another in Arabic, then each mail is in its certificate’s language', async () => {
    for (const [language, email] of [
      ['pt', 'pt@example.edu'],
      ['ar', 'ar@example.edu'],
    ] as const) {
      const pdf = pdfOf(email);
      const event = issuedV2({ pdf, email, language });
      await store(h, event.objectKey, pdf);
      await h.bus.publish([event]);
    }
    const pt = await h.catcher.waitFor((m) => m.to.includes('pt@example.edu'), 10_000);
    expect(pt.subject).toBe('Parabéns! Seu certificado de “Distance Learning Readiness”');
    expect(pt.text).toContain('com pontuação de 92%!');
    expect(pt.attachments).toHaveLength(1);
    const ar = await h.catcher.waitFor((m) => m.to.includes('ar@example.edu'), 10_000);
    expect(ar.subject).toBe('تهانينا! شهادتك لاجتياز «Distance Learning Readiness»');
    expect(ar.html).toMatch(/<html lang="ar" dir="rtl">/);
    expect(ar.attachments).toHaveLength(1);
  });

  test('when a certificate names the assessment in its language, then its mail and its resend name it so, and no English title is left', async () => {
    const title = 'الاستعداد للتعلم عن بعد';
    for (const resend of [false, true]) {
      const pdf = pdfOf(`ar-title ${resend}`);
      const event = issuedV2({
        pdf,
        email: 'ar-title@example.edu',
        language: 'ar',
        resend,
        assessmentTitle: title,
      });
      await store(h, event.objectKey, pdf);
      await h.bus.publish([event]);
    }
    await eventually(() => mailsTo(h, 'ar-title@example.edu').length === 2, 'both mails');
    const [issued, resent] = [false, true].map((again) =>
      mailsTo(h, 'ar-title@example.edu').find((m) => m.subject.includes('(إعادة إرسال)') === again)!,
    );
    expect(issued!.subject).toBe(`تهانينا! شهادتك لاجتياز «${title}»`);
    expect(resent!.subject).toBe(`شهادتك لاجتياز «${title}» (إعادة إرسال)`);
    for (const mail of [issued!, resent!]) {
      expect(mail.text).toContain(`«${title}»`);
      expect(mail.html).toContain(title);
      expect(`${mail.subject}${mail.text}${mail.html}`).not.toContain('Distance Learning Readiness');
    }
    const es = issuedV2({
      pdf: pdfOf('es-title'),
      email: 'es-title@example.edu',
      language: 'es',
      assessmentTitle: 'Preparación para la educación a distancia',
    });
    await store(h, es.objectKey, pdfOf('es-title'));
    await h.bus.publish([es]);
    const spanish = await h.catcher.waitFor((m) => m.to.includes('es-title@example.edu'), 10_000);
    expect(spanish.subject).toBe(
      '¡Enhorabuena! Su certificado de «Preparación para la educación a distancia»',
    );
  });

  test('when an event names an object outside the certificates, then nothing is read or mailed and the mail is given up at once', async () => {
    // An uploaded answer, with the digest right: only certificate keys are ever read.
    const studentId = randomUUID();
    const answer = pdfOf('an uploaded answer');
    for (const objectKey of [
      `answers/${studentId}/essay.pdf`,
      `certificates/../answers/${studentId}/essay.pdf`,
      `certificates/${studentId}/..%2F..%2Fanswers.pdf\n`,
    ]) {
      await store(h, `answers/${studentId}/essay.pdf`, answer);
      const event = issuedV2({ pdf: answer, objectKey, email: 'prober@example.edu', studentId });
      await h.bus.publish([event]);
      await eventually(async () => (await deliveryOf(h, event.id))?.status === 'failed', objectKey);
      const row = await deliveryOf(h, event.id);
      expect(row).toMatchObject({ attempts: 1 });
      expect(row?.last_error).toContain("not a certificate's object key");
    }
    expect(mailsTo(h, 'prober@example.edu')).toHaveLength(0);
  });
});

describe('certificate mail when the stored PDF is missing or different', () => {
  let h: Harness;
  beforeAll(async () => {
    // Retries every 400 ms after the first two: about 3 s before a mail is given up.
    h = await startNotification('embedded', { maxAttempts: 10 });
  });
  afterAll(() => h.close());

  test('when the PDF is not stored yet, then the mail is retried and sent once it is', async () => {
    const pdf = pdfOf('a late object');
    const event = issuedV2({ pdf, email: 'late@example.edu' });
    await h.bus.publish([event]);
    await eventually(async () => ((await deliveryOf(h, event.id))?.attempts ?? 0) >= 1, 'a first attempt');
    expect((await deliveryOf(h, event.id))?.last_error).toContain('is not in object storage');
    expect(mailsTo(h, 'late@example.edu')).toHaveLength(0);
    await store(h, event.objectKey, pdf);
    const mail = await h.catcher.waitFor((m) => m.to.includes('late@example.edu'), 10_000);
    expect(mail.attachments).toMatchObject([{ size: pdf.length, sha256: sha256(pdf) }]);
    await eventually(async () => (await deliveryOf(h, event.id))?.status === 'sent');
  });

  test('when the stored PDF is not the one the event names, then no mail goes, and after the last attempt it is given up', async () => {
    const named = pdfOf('the issued certificate');
    const event = issuedV2({ pdf: named, email: 'mismatch@example.edu' });
    // Same length, other bytes: only the digest tells them apart.
    const other = Buffer.from(named.toString().replace('issued', 'forged'));
    expect(other.length).toBe(named.length);
    await store(h, event.objectKey, other);
    await h.bus.publish([event]);
    await eventually(
      async () => (await deliveryOf(h, event.id))?.status === 'failed',
      'the mail given up',
      20_000,
    );
    const row = await deliveryOf(h, event.id);
    expect(row?.attempts).toBe(10);
    expect(row?.last_error).toContain('is not the one the event names');
    expect(mailsTo(h, 'mismatch@example.edu')).toHaveLength(0);
  });
});
