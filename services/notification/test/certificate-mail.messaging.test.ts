import { randomUUID } from 'node:crypto';
import { CertificateIssuedSchema, create, encodePayload, timestampFromDate } from '@readiness/contracts';
import type { BusMessage } from '@readiness/kit/bus';
import { eventually } from '@readiness/testing';
import { deliveryRows, startNotification, type Harness } from './harness';

jest.setTimeout(60_000);

const PDF = Buffer.from('%PDF-1.4\n% a certificate\n%%EOF\n');

function certificateEvent(overrides: { id?: string; resend?: boolean; name?: string } = {}): BusMessage {
  return {
    id: overrides.id ?? randomUUID(),
    name: 'report.certificate.issued.v1',
    occurredAt: new Date(),
    source: 'report',
    payload: encodePayload(
      'report.certificate.issued.v1',
      create(CertificateIssuedSchema, {
        resultId: randomUUID(),
        studentId: randomUUID(),
        name: overrides.name ?? 'Grace <Hopper>',
        email: 'grace@example.edu',
        assessmentCode: 'RDY-7K3F-92QX',
        assessmentTitle: 'Distance Learning Readiness',
        percentage: 92,
        objectKey: 'certificates/s/r.pdf',
        pdf: PDF,
        downloadUrl: 'https://readiness.example.edu/api/certificates/RDY-7K3F-92QX/pdf?expires=1&signature=x',
        downloadUrlExpiresAt: timestampFromDate(new Date()),
        verificationUrl: 'https://readiness.example.edu/verify/RDY-7K3F-92QX',
        issuedAt: timestampFromDate(new Date()),
        resend: overrides.resend ?? false,
      }),
    ),
  };
}

describe('certificate mail', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startNotification('embedded');
  });
  afterAll(() => h.close());

  test('when a certificate is issued and the event arrives three times, then one friendly mail carries the PDF', async () => {
    const event = certificateEvent();
    await h.bus.publish([event]);
    await h.bus.publish([event]);
    await h.bus.publish([event]);
    const mail = await h.catcher.waitFor((m) => m.subject.startsWith('Congratulations'), 10_000);
    expect(mail.subject).toBe('Congratulations! Your certificate for Distance Learning Readiness');
    expect(mail.text).toContain('with a score of 92%');
    expect(mail.text).toContain('https://readiness.example.edu/verify/RDY-7K3F-92QX');
    expect(mail.html).toContain('Grace &lt;Hopper&gt;');
    expect(mail.attachments).toEqual([
      { filename: 'certificate-Grace-Hopper.pdf', contentType: 'application/pdf', size: PDF.length },
    ]);
    await eventually(async () => (await deliveryRows(h.database)).some((r) => r.status === 'sent'));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(h.catcher.list().filter((m) => m.subject.startsWith('Congratulations'))).toHaveLength(1);
    expect((await deliveryRows(h.database)).filter((r) => r.template === 'certificate-issued')).toHaveLength(
      1,
    );
  });

  test('when a resend is asked, then the mail says it is sent again', async () => {
    await h.bus.publish([certificateEvent({ resend: true })]);
    const mail = await h.catcher.waitFor((m) => m.subject.includes('(sent again)'), 10_000);
    expect(mail.text).toContain('As requested, here is your certificate');
    expect(mail.attachments).toHaveLength(1);
  });
});
