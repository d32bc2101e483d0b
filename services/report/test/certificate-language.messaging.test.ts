import { sql } from 'drizzle-orm';
import { eventually } from '@readiness/testing';
import { pdfText, resultFacts, startReport, type Harness } from './harness';

jest.setTimeout(120_000);

/** The text of a PDF as pdftotext reads it, the embedding marks it puts around right-to-left runs left out. */
const words = (pdf: Buffer) => pdfText(pdf).replace(/[\u202a-\u202e]/g, '');

describe('a certificate in the result’s language', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startReport('embedded');
    await h.publishVersion();
  });

  afterAll(async () => {
    await h?.close();
  });

  it('when a result recorded in French passes, then its certificate is French, the event says so and the mail is French', async () => {
    const facts = resultFacts({
      name: 'Zoë Ångström',
      email: 'zoe@example.edu',
      percentage: 92,
      language: 'fr',
    });
    await h.publishResult(facts);
    const mail = await h.mail.waitFor((m) => m.to.includes('zoe@example.edu'), 30_000);
    expect(mail.subject).toBe(
      'Félicitations\u00a0! Votre certificat pour «\u00a0Distance Learning Readiness\u00a0»',
    );
    const [event] = h.issued.filter((e) => e.resultId === facts.resultId);
    expect(event).toMatchObject({ language: 'fr', resend: false });
    const text = words(await h.object(event!.objectKey)).replace(/[\u00a0\u202f]/g, ' ');
    expect(text).toContain('Certificat de réussite');
    expect(text).toContain('Zoë Ångström');
    expect(text).toContain('a réussi Distance Learning Readiness');
    expect(text).toContain('avec un résultat de 92 %.');
    expect(text).toContain('Délivré le 20 novembre 2026');
  });

  it('when the certificate of a result recorded in Arabic is resent, then the resend is Arabic too, from the stored language', async () => {
    const facts = resultFacts({ name: 'ليلى حسن', email: 'layla@example.edu', language: 'ar' });
    await h.publishResult(facts);
    await h.mail.waitFor((m) => m.to.includes('layla@example.edu'), 30_000);
    await h.resend(facts);
    await eventually(
      () => h.mail.list().filter((m) => m.to.includes('layla@example.edu')).length === 2,
      'the resent mail',
      20_000,
    );
    const subjects = h.mail
      .list()
      .filter((m) => m.to.includes('layla@example.edu'))
      .map((m) => m.subject);
    expect(subjects.sort()).toEqual(
      [
        'تهانينا! شهادتك لاجتياز «Distance Learning Readiness»',
        'شهادتك لاجتياز «Distance Learning Readiness» (إعادة إرسال)',
      ].sort(),
    );
    expect(h.issued.filter((e) => e.resultId === facts.resultId).map((e) => e.language)).toEqual([
      'ar',
      'ar',
    ]);
    const rows = await h.database.execute<{ language: string }>(
      sql`SELECT language FROM results WHERE result_id = ${facts.resultId}`,
    );
    expect(rows).toEqual([{ language: 'ar' }]);
    const text = words(await h.object(h.issued.find((e) => e.resultId === facts.resultId)!.objectKey));
    expect(text).toContain('شهادة إنجاز');
    expect(text).toContain('ليلى حسن');
  });

  it('when a result comes without a language, or with one Readiness does not have, then the certificate and its mail are English', async () => {
    for (const [language, email] of [
      [undefined, 'none@example.edu'],
      ['de', 'de@example.edu'],
    ] as const) {
      const facts = resultFacts({ email, language });
      await h.publishResult(facts);
      const mail = await h.mail.waitFor((m) => m.to.includes(email), 30_000);
      expect(mail.subject).toBe('Congratulations! Your certificate for the Distance Learning Readiness');
      const [event] = h.issued.filter((e) => e.resultId === facts.resultId);
      expect(event!.language).toBe('en');
      expect(words(await h.object(event!.objectKey))).toContain('Certificate of Achievement');
    }
  });

  it('when a result recorded in Spanish names the assessment in Spanish, then its certificate, mails and verification do too, and the admin’s PDF report keeps the English title', async () => {
    const facts = resultFacts({
      name: 'Inés Núñez',
      email: 'ines@example.edu',
      language: 'es',
      localizedTitle: 'Preparación para la educación a distancia',
    });
    await h.publishResult(facts);
    const mail = await h.mail.waitFor((m) => m.to.includes('ines@example.edu'), 30_000);
    expect(mail.subject).toBe('¡Enhorabuena! Su certificado de «Preparación para la educación a distancia»');
    expect(mail.text).toContain('Preparación para la educación a distancia');
    expect(mail.text).not.toContain('Distance Learning Readiness');
    const [event] = h.issued.filter((e) => e.resultId === facts.resultId);
    expect(event).toMatchObject({
      language: 'es',
      assessmentTitle: 'Preparación para la educación a distancia',
    });
    const text = words(await h.object(event!.objectKey)).replace(/\s+/g, ' ');
    expect(text).toContain('Preparación para la educación a distancia');
    expect(text).not.toContain('Distance Learning Readiness');

    // The verification page shows the title the certificate prints.
    const verified = await h.get(`/api/certificates/${facts.assessmentCode}`, { token: null });
    expect(await verified.json()).toMatchObject({
      valid: true,
      assessmentTitle: 'Preparación para la educación a distancia',
    });

    await h.resend(facts);
    const resent = await h.mail.waitFor(
      (m) => m.to.includes('ines@example.edu') && m.subject.includes('nuevo envío'),
      20_000,
    );
    expect(resent.subject).toBe(
      'Su certificado de «Preparación para la educación a distancia» (nuevo envío)',
    );

    // The report is the administrator's, in English: it names the assessment by its own title.
    const report = await h.get(`/api/admin/results/${facts.resultId}/pdf`);
    const reportText = pdfText(Buffer.from(await report.arrayBuffer())).replace(/\s+/g, ' ');
    expect(reportText).toContain('Distance Learning Readiness');
    expect(reportText).not.toContain('Preparación');
    const rows = await h.database.execute<{ assessment_title: string; localized_title: string }>(
      sql`SELECT assessment_title, localized_title FROM results WHERE result_id = ${facts.resultId}`,
    );
    expect(rows).toEqual([
      {
        assessment_title: 'Distance Learning Readiness',
        localized_title: 'Preparación para la educación a distancia',
      },
    ]);
  });

  it('when a result recorded in Arabic names the assessment in Arabic, then the Arabic certificate and its mail name it in Arabic', async () => {
    const facts = resultFacts({
      name: 'ليلى حسن',
      email: 'layla-title@example.edu',
      language: 'ar',
      localizedTitle: 'الاستعداد للتعلم عن بعد',
    });
    await h.publishResult(facts);
    const mail = await h.mail.waitFor((m) => m.to.includes('layla-title@example.edu'), 30_000);
    expect(mail.subject).toBe('تهانينا! شهادتك لاجتياز «الاستعداد للتعلم عن بعد»');
    const [event] = h.issued.filter((e) => e.resultId === facts.resultId);
    expect(event!.assessmentTitle).toBe('الاستعداد للتعلم عن بعد');
    const text = words(await h.object(event!.objectKey));
    expect(text).not.toContain('Distance Learning Readiness');
    // pdftotext reads the words of a right-to-left line in either order: each word is there.
    for (const word of ['الاستعداد', 'للتعلم', 'بعد']) expect(text).toContain(word);
  });

  it('when a result comes from a results service older than localized titles, then the certificate keeps the English title in its language', async () => {
    const facts = resultFacts({ email: 'older@example.edu', language: 'pt' });
    await h.publishResult(facts);
    await h.mail.waitFor((m) => m.to.includes('older@example.edu'), 30_000);
    const [event] = h.issued.filter((e) => e.resultId === facts.resultId);
    expect(event).toMatchObject({ language: 'pt', assessmentTitle: 'Distance Learning Readiness' });
    expect(words(await h.object(event!.objectKey)).replace(/\s+/g, ' ')).toContain(
      'Distance Learning Readiness',
    );
  });
});
