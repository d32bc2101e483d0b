import { eventually } from '@readiness/testing';
import { issuedPass, startReport, type Harness } from './harness';

jest.setTimeout(120_000);

describe('certificate verification', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startReport('real');
  });

  afterAll(async () => {
    await h?.close();
  });

  const issue = (email: string) => issuedPass(h, 'Katherine Johnson', email, 88);

  it('when a code belongs to an issued certificate, then it verifies with the name, title, percentage and date only', async () => {
    const facts = await issue('kj@example.edu');
    const res = await h.get(`/api/certificates/${facts.assessmentCode.toLowerCase()}`, { token: null });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      valid: true,
      name: 'Katherine Johnson',
      assessmentTitle: 'Distance Learning Readiness',
      percentage: 88,
      issuedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
  });

  it('when a code is unknown or malformed, then the answer is 404 No certificate has this code', async () => {
    for (const code of ['RDY-0000-0000', 'not a code!', 'x'.repeat(100)]) {
      const res = await h.get(`/api/certificates/${encodeURIComponent(code)}`, { token: null });
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ code: 'not_found', message: 'No certificate has this code' });
    }
  });

  it('when the result is deleted, then its certificate no longer verifies and its PDF is gone', async () => {
    const facts = await issue('deleted-result@example.edu');
    await h.deleteResult(facts);
    await eventually(async () => (await h.get(`/api/certificates/${facts.assessmentCode}`)).status === 404);
    expect(await h.objects(`certificates/${facts.studentId}/`)).toEqual([]);
  });

  it('when the student is deleted, then every certificate of theirs stops verifying', async () => {
    const facts = await issue('deleted-student@example.edu');
    await h.deleteStudent(facts);
    await eventually(async () => (await h.get(`/api/certificates/${facts.assessmentCode}`)).status === 404);
    expect(await h.objects(`certificates/${facts.studentId}/`)).toEqual([]);
    const res = await h.get(`/api/admin/results/${facts.resultId}/pdf`);
    expect(res.status).toBe(404);
  });

  it('when the signed link of the issued event is followed, then it gives the PDF; altered or expired, it does not', async () => {
    const facts = await issue('link@example.edu');
    const event = h.issued.find((e) => e.resultId === facts.resultId)!;
    const path = new URL(event.downloadUrl);
    const ok = await h.get(`${path.pathname}${path.search}`, { token: null });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('application/pdf');

    const altered = new URLSearchParams(path.search);
    altered.set('expires', String(Number(altered.get('expires')) + 60));
    const refused = await h.get(`${path.pathname}?${altered}`, { token: null });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      code: 'link_expired',
      message: 'This download link has expired or is not valid',
    });
    const past = new URLSearchParams({ expires: '1000', signature: altered.get('signature')! });
    expect((await h.get(`${path.pathname}?${past}`, { token: null })).status).toBe(403);
  });
});
