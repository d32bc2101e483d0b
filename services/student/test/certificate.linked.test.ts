import { randomUUID } from 'node:crypto';
import { create, events as contracts, timestampFromDate, type EventPayload } from '@readiness/contracts';
import { eventually } from '@readiness/testing';
import { inviteStudent, resultEvent, studentCall, useStudent } from './harness';

jest.setTimeout(60_000);

/** A certificate as the report service issues it for a result, its link valid for `validMs`. */
function issuedEvent(
  result: EventPayload<'results.result.recorded.v1'>,
  url: string,
  validMs = 60 * 60_000,
): EventPayload<'report.certificate.issued.v2'> {
  return create(contracts['report.certificate.issued.v2'], {
    resultId: result.resultId,
    studentId: result.studentId,
    name: result.name,
    email: result.email,
    assessmentCode: result.assessmentCode,
    assessmentTitle: result.assessmentTitle,
    percentage: result.percentage,
    objectKey: `certificates/${result.resultId}.pdf`,
    pdfSize: 4,
    pdfSha256: '315d429b7714cedb6ad04ac31240145257692630457f3c88253c5beceac76027',
    downloadUrl: url,
    downloadUrlExpiresAt: timestampFromDate(new Date(Date.now() + validMs)),
    verificationUrl: `https://readiness.example/verify/${result.assessmentCode}`,
    issuedAt: timestampFromDate(new Date()),
  } as never);
}

const link = () =>
  `https://readiness.example/api/certificates/RDY-7K3F-92QX/pdf?expires=1&signature=${randomUUID()}`;

describe('certificate links on the student side', () => {
  const h = useStudent('embedded');

  /** A student who started and passed: the recorded result, not yet published. */
  const passedStudent = async () => {
    const s = await inviteStudent(h);
    const { json } = await studentCall(h, 'POST', `/api/student/${s.token}/start`);
    const payload = {
      attemptId: json.attempt.id,
      attemptNumber: json.attempt.attemptNumber,
      studentId: s.id,
      versionId: randomUUID(),
      name: 'Ada',
      email: 'ada@example.edu',
    };
    return { ...s, result: resultEvent(payload) };
  };

  const results = async (token: string) =>
    (await studentCall(h, 'GET', `/api/student/${token}/results`)).json.results as Array<
      Record<string, unknown>
    >;

  test('when the certificate is issued after the result, then the results and the assessment carry its link, and a redelivery changes nothing', async () => {
    const s = await passedStudent();
    await h.publish('results.result.recorded.v1', s.result);
    await eventually(async () => expect(await results(s.token)).toHaveLength(1));
    expect((await results(s.token))[0]!.certificateUrl).toBeNull();

    const url = link();
    const issued = issuedEvent(s.result, url);
    await h.publish('report.certificate.issued.v2', issued);
    await eventually(async () => expect((await results(s.token))[0]!.certificateUrl).toBe(url));
    const page = await studentCall(h, 'GET', `/api/student/${s.token}/assessment`);
    expect(page.json.result.certificateUrl).toBe(url);

    await h.publish('report.certificate.issued.v2', issued);
    const fresh = link();
    await h.publish('report.certificate.issued.v2', issuedEvent(s.result, fresh, 2 * 60 * 60_000));
    await eventually(async () => expect((await results(s.token))[0]!.certificateUrl).toBe(fresh));
    // An older link delivered late never replaces the resend's fresh one.
    await h.publish('report.certificate.issued.v2', issuedEvent(s.result, link()));
    await new Promise((r) => setTimeout(r, 300));
    expect((await results(s.token))[0]!.certificateUrl).toBe(fresh);
  });

  test('when the certificate is issued before the result copy arrives, then the link is kept once it does', async () => {
    const s = await passedStudent();
    const url = link();
    await h.publish('report.certificate.issued.v2', issuedEvent(s.result, url));
    await new Promise((r) => setTimeout(r, 250));
    await h.publish('results.result.recorded.v1', s.result);
    await eventually(
      async () => expect((await results(s.token))[0]?.certificateUrl).toBe(url),
      'the link',
      15_000,
    );
  });

  test('when the link has expired, then certificateUrl is null', async () => {
    const s = await passedStudent();
    await h.publish('results.result.recorded.v1', s.result);
    await h.publish('report.certificate.issued.v2', issuedEvent(s.result, link(), -1_000));
    await eventually(async () => expect(await results(s.token)).toHaveLength(1));
    await new Promise((r) => setTimeout(r, 300));
    expect((await results(s.token))[0]!.certificateUrl).toBeNull();
  });
});
