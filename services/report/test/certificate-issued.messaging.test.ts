import { createHash } from 'node:crypto';
import { encodePayload } from '@readiness/contracts';
import { eventually } from '@readiness/testing';
import { pdfText, resultFacts, startReport, type Harness } from './harness';

jest.setTimeout(120_000);

const settle = () => new Promise((resolve) => setTimeout(resolve, 1500));

describe.each(['real', 'embedded'] as const)('certificate on pass (%s)', (kind) => {
  let h: Harness;

  beforeAll(async () => {
    h = await startReport(kind);
    await h.publishVersion();
  });

  afterAll(async () => {
    await h?.close();
  });

  it('when a passed result is delivered three times, then one certificate is stored, announced by its key and digest, and mailed once with the stored bytes', async () => {
    const facts = resultFacts({ name: 'Grace Hopper', email: 'grace@example.edu', percentage: 92 });
    const eventId = await h.publishResult(facts);
    await h.publishResult(facts, eventId);
    await h.publishResult(facts);

    const mail = await h.mail.waitFor((m) => m.to.includes('grace@example.edu'), 30_000);
    expect(mail.subject).toContain('Congratulations');
    expect(mail.attachments).toEqual([
      expect.objectContaining({ filename: 'certificate-Grace-Hopper.pdf', contentType: 'application/pdf' }),
    ]);
    expect(mail.text).toContain(facts.assessmentCode);
    await settle();
    expect(h.mail.list().filter((m) => m.to.includes('grace@example.edu'))).toHaveLength(1);
    const issued = h.issued.filter((e) => e.resultId === facts.resultId);
    expect(issued).toHaveLength(1);
    const [event] = issued;
    expect(event).toMatchObject({
      studentId: facts.studentId,
      name: 'Grace Hopper',
      email: 'grace@example.edu',
      assessmentCode: facts.assessmentCode,
      assessmentTitle: 'Distance Learning Readiness',
      percentage: 92,
      resend: false,
      verificationUrl: `https://readiness.example.edu/verify/${facts.assessmentCode}`,
    });
    expect(event!.downloadUrl).toMatch(
      new RegExp(
        `^https://readiness\\.example\\.edu/api/certificates/${facts.assessmentCode}/pdf\\?expires=\\d+&signature=`,
      ),
    );
    // The event names the stored PDF; the bytes stay in object storage and the mail carries exactly them.
    const key = `certificates/${facts.studentId}/${facts.resultId}.pdf`;
    expect(event!.objectKey).toBe(key);
    const pdf = await h.object(key);
    expect(event!.pdfSize).toBe(pdf.length);
    expect(event!.pdfSha256).toBe(createHash('sha256').update(pdf).digest('hex'));
    expect(mail.attachments[0]).toMatchObject({ size: pdf.length, sha256: event!.pdfSha256 });
    expect(encodePayload('report.certificate.issued.v2', event!).length).toBeLessThan(2048);
    const text = pdfText(pdf);
    expect(text).toContain('Grace Hopper');
    expect(text).toContain('92%');
    expect(text).toContain(facts.assessmentCode);
    // The code is printed whole twice: under "Verification code" and at the end of the verify address.
    expect(text.split(facts.assessmentCode)).toHaveLength(3);
    expect(text).toContain('Northfield College');
    expect(await h.objects(`certificates/${facts.studentId}/`)).toEqual([key]);
  });

  it('when a failed result is recorded, then no certificate, event or mail follows', async () => {
    const facts = resultFacts({ passed: false, percentage: 40, email: 'failed@example.edu' });
    await h.publishResult(facts);
    await settle();
    expect(h.issued.filter((e) => e.resultId === facts.resultId)).toHaveLength(0);
    expect(h.mail.list().filter((m) => m.to.includes('failed@example.edu'))).toHaveLength(0);
    expect(await h.objects(`certificates/${facts.studentId}/`)).toEqual([]);
    const res = await h.get(`/api/admin/results/${facts.resultId}/certificate`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      code: 'not_passed',
      message: 'This result did not pass, so it has no certificate',
    });
  });

  it('when a resend is requested twice, then the student gets one more mail per request', async () => {
    const facts = resultFacts({ email: 'resend@example.edu' });
    await h.publishResult(facts);
    await h.mail.waitFor((m) => m.to.includes('resend@example.edu'), 30_000);
    await h.resend(facts);
    await h.resend(facts);
    await eventually(
      () => h.mail.list().filter((m) => m.to.includes('resend@example.edu')).length === 3,
      'three certificate mails',
      20_000,
    );
    await settle();
    const mails = h.mail.list().filter((m) => m.to.includes('resend@example.edu'));
    expect(mails).toHaveLength(3);
    expect(mails.filter((m) => m.subject.includes('sent again'))).toHaveLength(2);
    expect(h.issued.filter((e) => e.resultId === facts.resultId && e.resend)).toHaveLength(2);
  });
});
