import { eventually } from '@readiness/testing';
import { ALL_RIGHT, useResults, versionEvent } from './harness';

jest.setTimeout(60_000);

describe.each(['real', 'embedded'] as const)('deleting and resending on %s adapters', (kind) => {
  const version = versionEvent();
  const h = useResults(kind, { versions: [version] });

  test('when an admin deletes a result, then it is gone, counted no more, and results.result.deleted.v1 names it', async () => {
    const recorded = await h.submit({ versionId: version.versionId, answers: ALL_RIGHT });
    const before = (await (await h.call('GET', '/api/admin/results')).json()) as {
      stats: { totalResults: number };
    };
    const res = await h.call('DELETE', `/api/admin/results/${recorded.resultId}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'Assessment result deleted successfully' });
    const event = await eventually(
      () =>
        h.events.find(
          (e) => e.name === 'results.result.deleted.v1' && e.payload.resultId === recorded.resultId,
        ) ?? false,
      'the deleted event',
    );
    expect(event.payload).toMatchObject({ attemptId: recorded.attemptId, studentId: recorded.studentId });
    expect((await h.call('GET', `/api/admin/results/${recorded.resultId}`)).status).toBe(404);
    const after = (await (await h.call('GET', '/api/admin/results')).json()) as {
      stats: { totalResults: number };
    };
    expect(after.stats.totalResults).toBe(before.stats.totalResults - 1);
    const again = await h.call('DELETE', `/api/admin/results/${recorded.resultId}`);
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({ message: 'Result not found', code: 'result_not_found' });
  });

  test('when an admin resends the certificate of a passed result, then the request event goes out', async () => {
    const recorded = await h.submit({
      versionId: version.versionId,
      answers: ALL_RIGHT,
      name: 'Emmy Noether',
      email: 'emmy@example.edu',
    });
    expect(recorded.passed).toBe(true);
    const res = await h.call('POST', `/api/admin/results/${recorded.resultId}/resend-certificate`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'Certificate resent successfully' });
    const event = await eventually(
      () =>
        h.events.find(
          (e) =>
            e.name === 'results.certificate.resend-requested.v1' && e.payload.resultId === recorded.resultId,
        ) ?? false,
      'the resend event',
    );
    expect(event.payload).toMatchObject({
      studentId: recorded.studentId,
      name: 'Emmy Noether',
      email: 'emmy@example.edu',
      assessmentCode: recorded.assessmentCode,
    });
  });

  test('when an admin resends the certificate of a failed result, then 409 and nothing is requested', async () => {
    const recorded = await h.submit({ versionId: version.versionId, answers: [] });
    const res = await h.call('POST', `/api/admin/results/${recorded.resultId}/resend-certificate`);
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({
      code: 'not_passed',
      message: 'Only a passed result has a certificate to resend',
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(
      h.events.some(
        (e) =>
          e.name === 'results.certificate.resend-requested.v1' && e.payload.resultId === recorded.resultId,
      ),
    ).toBe(false);
  });
});
