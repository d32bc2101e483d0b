import { generateKeyPairSync } from 'node:crypto';
import { loadSigningKeys, type SigningKeys } from '@readiness/kit/auth';
import { createLogger } from '@readiness/kit/logger';
import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import {
  CREDENTIAL_CONTEXT,
  checkSignature,
  identityHash,
  openBadgeCredential,
  sameClaims,
  signCredential,
  type CredentialFacts,
} from './open-badge';

const logger = createLogger({ name: 'open-badge-test', level: 'silent' });
const ORIGIN = 'https://readiness.example.edu';
const ISSUER = { origin: ORIGIN, name: 'Example Distance Education' };
const FACTS: CredentialFacts = {
  code: 'RDY-7K3F-92QX',
  email: 'Ada@Example.edu',
  assessmentTitle: 'Distance Learning Readiness',
  score: 17,
  totalPoints: 20,
  issuedAt: new Date('2026-11-30T10:15:00.000Z'),
};

const pem = () =>
  generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();
const keysOf = (privateKeyPem: string, previousPublicKeysPem?: string) =>
  loadSigningKeys({ privateKeyPem, previousPublicKeysPem, dataDir: '/nonexistent', logger });

let keys: SigningKeys;
beforeAll(async () => {
  keys = await keysOf(pem());
});

/** The base64url part `index` of a token with one character changed. */
function changed(token: string, index: number): string {
  const parts = token.split('.');
  const part = parts[index]!;
  const at = Math.floor(part.length / 2);
  parts[index] = `${part.slice(0, at)}${part[at] === 'A' ? 'B' : 'A'}${part.slice(at + 1)}`;
  return parts.join('.');
}

describe('the OpenBadgeCredential of a certificate', () => {
  const credential = openBadgeCredential(FACTS, ISSUER);

  it('when built, then it has the fields Open Badges 3.0 requires of a credential, its issuer, subject and achievement', () => {
    expect(credential['@context']).toEqual([...CREDENTIAL_CONTEXT]);
    expect(credential.type).toEqual(expect.arrayContaining(['VerifiableCredential', 'OpenBadgeCredential']));
    expect(credential.id).toBe(`${ORIGIN}/api/verify/RDY-7K3F-92QX/credential`);
    expect(credential.name).toBe('Distance Learning Readiness');
    expect(credential.validFrom).toBe('2026-11-30T10:15:00.000Z');
    expect(credential.issuer).toEqual({
      id: ORIGIN,
      type: ['Profile'],
      name: 'Example Distance Education',
      url: ORIGIN,
    });
    const subject = credential.credentialSubject;
    expect(subject.type).toEqual(['AchievementSubject']);
    // No name or address of the student beside the hashed identity.
    expect(Object.keys(subject).sort()).toEqual(['achievement', 'identifier', 'result', 'type']);
    expect(subject.achievement).toMatchObject({
      id: expect.stringMatching(/^https:\/\//),
      type: ['Achievement'],
      achievementType: 'Assessment',
      name: 'Distance Learning Readiness',
      description: expect.stringContaining('Distance Learning Readiness'),
      criteria: { narrative: expect.any(String) },
    });
    expect(subject.result).toEqual([{ type: ['Result'], value: '85%' }]);
  });

  it('when built, then the student is named only by a salted SHA-256 of their e-mail address, never in clear', () => {
    const [identity] = credential.credentialSubject.identifier;
    expect(identity).toEqual({
      type: 'IdentityObject',
      identityType: 'emailAddress',
      hashed: true,
      identityHash: identityHash('ada@example.edu', 'RDY-7K3F-92QX'),
      salt: 'RDY-7K3F-92QX',
    });
    expect(identity!.identityHash).toMatch(/^sha256\$[0-9a-f]{64}$/);
    expect(JSON.stringify(credential)).not.toMatch(/ada@example\.edu/i);
  });
});

describe('the VC-JWT', () => {
  const credential = openBadgeCredential(FACTS, ISSUER);

  it("when signed, then its header names RS256 and the key, and its claims are the credential's members with iss, jti, sub and nbf", async () => {
    const token = await signCredential(credential, keys);
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'RS256', kid: keys.kid, typ: 'JWT' });
    expect(decodeJwt(token)).toEqual({
      ...credential,
      iss: ORIGIN,
      jti: credential.id,
      sub: credential.credentialSubject.identifier[0]!.identityHash,
      nbf: Date.parse('2026-11-30T10:15:00Z') / 1000,
    });
    // The same certificate and key give the same token (RS256 is deterministic): a download again is the same file.
    expect(await signCredential(credential, keys)).toBe(token);
  });

  it("when checked as signed, then it verifies and names its code, and its claims are the certificate's", async () => {
    const check = await checkSignature(await signCredential(credential, keys), keys, ORIGIN);
    expect(check).toMatchObject({ ok: true, code: 'RDY-7K3F-92QX' });
    expect(check.ok && sameClaims(check, credential)).toBe(true);
  });

  it.each([
    ['a byte of its header changed', 0],
    ['a byte of its claims changed', 1],
    ['a byte of its signature changed', 2],
  ])('when %s, then it does not verify', async (_what, part) => {
    const token = await signCredential(credential, keys);
    expect(await checkSignature(changed(token, part), keys, ORIGIN)).toEqual({ ok: false });
  });

  it('when signed by another key, for another issuer, or not a JWT at all, then it does not verify', async () => {
    const other = await keysOf(pem());
    expect(await checkSignature(await signCredential(credential, other), keys, ORIGIN)).toEqual({
      ok: false,
    });
    expect(
      await checkSignature(await signCredential(credential, keys), keys, 'https://elsewhere.example'),
    ).toEqual({ ok: false });
    expect(await checkSignature('not a credential', keys, ORIGIN)).toEqual({ ok: false });
  });

  it('when signed by a retired key still published, then it verifies; the claims of another certificate do not match', async () => {
    const retired = await keysOf(pem());
    const rotated = await keysOf(pem(), publicPem(retired));
    const check = await checkSignature(await signCredential(credential, retired), rotated, ORIGIN);
    expect(check.ok).toBe(true);
    const another = openBadgeCredential({ ...FACTS, score: 12 }, ISSUER);
    expect(check.ok && sameClaims(check, another)).toBe(false);
  });
});

describe('a VC-JWT of the VC Data Model 1.1 form issued before (the credential in a `vc` claim)', () => {
  const credential = openBadgeCredential(FACTS, ISSUER);
  const { validFrom, ...members } = credential;
  const legacyVc = {
    ...members,
    '@context': [
      'https://www.w3.org/2018/credentials/v1',
      'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.2.json',
    ],
    issuanceDate: validFrom,
  };
  const legacyToken = (vc: object, signing: SigningKeys) =>
    new SignJWT({ vc })
      .setProtectedHeader({ alg: 'RS256', kid: signing.kid, typ: 'JWT' })
      .setIssuer(ORIGIN)
      .setJti(credential.id)
      .setSubject(credential.credentialSubject.identifier[0]!.identityHash)
      .setNotBefore(Date.parse('2026-11-30T10:15:00Z') / 1000)
      .sign(signing.privateKey);

  it("when checked, then its claims are still the certificate's; with a changed score they are not", async () => {
    const check = await checkSignature(await legacyToken(legacyVc, keys), keys, ORIGIN);
    expect(check.ok && sameClaims(check, credential)).toBe(true);
    const changedScore = await checkSignature(
      await legacyToken({ ...legacyVc, description: credential.description.replace('85%', '95%') }, keys),
      keys,
      ORIGIN,
    );
    expect(changedScore.ok && sameClaims(changedScore, credential)).toBe(false);
  });
});

const publicPem = (keys: SigningKeys) =>
  keys.publicKeys[0]!.key.export({ type: 'spki', format: 'pem' }).toString();
