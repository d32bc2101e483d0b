import { eventually } from '@readiness/testing';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { issuedPass, PUBLIC_ORIGIN, startReport, type Harness } from './harness';

jest.setTimeout(120_000);

describe('Open Badges credentials through HTTP', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startReport('real');
  });

  afterAll(async () => {
    await h?.close();
  });

  const issue = (email: string) => issuedPass(h, 'Mary Jackson', email, 90);
  const credentialOf = async (code: string) => {
    const res = await h.get(`/api/verify/${code}/credential`, { token: null });
    return { res, token: await res.text() };
  };
  const check = async (credential: string) => {
    const res = await fetch(`${h.url}/api/verify/credential`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ credential }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it("when an issued certificate's credential is downloaded and presented, then it is a VC-JWT of the published key and checks genuine", async () => {
    const facts = await issue('mj@example.edu');
    const { res, token } = await credentialOf(facts.assessmentCode);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/vc\+ld\+json\+jwt/);
    expect(res.headers.get('content-disposition')).toContain(`certificate-${facts.assessmentCode}.jwt`);

    const jwks = (await (await h.get('/api/verify/jwks', { token: null })).json()) as {
      keys: Array<{ kid: string }>;
    };
    expect(jwks.keys.map((k) => k.kid)).toContain(decodeProtectedHeader(token).kid);
    // OB 3.0's JWT Payload is the credential itself, with the JWT's claims beside its members.
    const claims = decodeJwt(token) as {
      iss: string;
      vc?: unknown;
      type: string[];
      credentialSubject: { result: unknown };
    };
    expect(claims.iss).toBe(PUBLIC_ORIGIN);
    expect(claims.vc).toBeUndefined();
    expect(claims.type).toEqual(['VerifiableCredential', 'OpenBadgeCredential']);
    expect(claims.credentialSubject.result).toEqual([{ type: ['Result'], value: '90%' }]);

    expect(await check(token)).toEqual({
      status: 200,
      body: {
        status: 'genuine',
        code: facts.assessmentCode,
        name: 'Mary Jackson',
        assessmentTitle: 'Distance Learning Readiness',
        percentage: 90,
        issuedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      },
    });
  });

  it('when a byte is changed, or its result is deleted, then it checks altered, then revoked; an unknown code has no credential', async () => {
    const facts = await issue('mj-revoked@example.edu');
    const { token } = await credentialOf(facts.assessmentCode);
    const [header, payload, signature] = token.split('.');
    const flipped = `${payload!.slice(0, 10)}${payload![10] === 'A' ? 'B' : 'A'}${payload!.slice(11)}`;
    expect((await check(`${header}.${flipped}.${signature}`)).body).toEqual({ status: 'altered' });

    await h.deleteResult(facts);
    await eventually(async () => (await credentialOf(facts.assessmentCode)).res.status === 404);
    expect((await check(token)).body).toEqual({ status: 'revoked', code: facts.assessmentCode });

    expect((await credentialOf('RDY-0000-0000')).res.status).toBe(404);
    expect((await check('')).status).toBe(400);
  });
});
