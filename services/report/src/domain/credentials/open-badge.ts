import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { shownPercentage } from '@readiness/contracts';
import type { SigningKeys } from '@readiness/kit/auth';
import { SignJWT, createLocalJWKSet, jwtVerify } from 'jose';

/**
 * VC Data Model 2.0 and the Open Badges 3.0 context that goes with it (`validFrom`, the credential's members at the top
 * of the JWT), as 1EdTech's OB 3.0 schema requires: its first item must be the VC 2.0 context.
 */
export const CREDENTIAL_CONTEXT = [
  'https://www.w3.org/ns/credentials/v2',
  'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json',
] as const;

/**
 * The VC Data Model 1.1 form the service issued before: `issuanceDate`, the credential in a `vc` claim. Tokens of that
 * form already handed out still check, against the same certificate's credential in that form.
 */
const LEGACY_CONTEXT = [
  'https://www.w3.org/2018/credentials/v1',
  'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.2.json',
] as const;

/** What a credential says, taken from the certificate it stands beside. */
export interface CredentialFacts {
  code: string;
  email: string;
  assessmentTitle: string;
  score: number;
  totalPoints: number;
  issuedAt: Date;
}

export interface CredentialIssuer {
  /** PUBLIC_ORIGIN without a trailing slash: the issuer's id and URL, and where its credentials are served. */
  origin: string;
  name: string;
}

export const credentialUrl = (origin: string, code: string) =>
  `${origin}/api/verify/${encodeURIComponent(code)}/credential`;

/**
 * The student is named by a salted SHA-256 of their e-mail address (OB 3.0's IdentityObject), not in clear: whoever
 * is shown the credential can check it against the address the student gives them. The certificate's code is the salt.
 */
export const identityHash = (email: string, salt: string) =>
  `sha256$${createHash('sha256').update(`${email.trim().toLowerCase()}${salt}`, 'utf8').digest('hex')}`;

/** The assessment as an achievement: one id per title (titles are what certificates print). */
const achievementId = (origin: string, title: string) =>
  `${origin}/verify#achievement-${createHash('sha256').update(title, 'utf8').digest('hex').slice(0, 32)}`;

/** The Open Badges 3.0 OpenBadgeCredential of one certificate, without its proof. */
export function openBadgeCredential(facts: CredentialFacts, issuer: CredentialIssuer) {
  const percentage = shownPercentage(facts.score, facts.totalPoints);
  const description = `Passed the ${facts.assessmentTitle} readiness assessment with ${percentage}%.`;
  return {
    '@context': [...CREDENTIAL_CONTEXT],
    id: credentialUrl(issuer.origin, facts.code),
    type: ['VerifiableCredential', 'OpenBadgeCredential'],
    name: facts.assessmentTitle,
    description,
    issuer: { id: issuer.origin, type: ['Profile'], name: issuer.name, url: issuer.origin },
    validFrom: facts.issuedAt.toISOString(),
    credentialSubject: {
      type: ['AchievementSubject'],
      identifier: [
        {
          type: 'IdentityObject',
          identityType: 'emailAddress',
          hashed: true,
          identityHash: identityHash(facts.email, facts.code),
          salt: facts.code,
        },
      ],
      achievement: {
        id: achievementId(issuer.origin, facts.assessmentTitle),
        type: ['Achievement'],
        achievementType: 'Assessment',
        name: facts.assessmentTitle,
        description: `The ${facts.assessmentTitle} distance-education readiness assessment of ${issuer.name}.`,
        criteria: { narrative: 'Pass the assessment with at least its pass mark.' },
        humanCode: facts.code,
      },
      result: [{ type: ['Result'], value: `${percentage}%` }],
    },
  };
}

export type OpenBadgeCredential = ReturnType<typeof openBadgeCredential>;

/**
 * The VC-JWT's claims (OB 3.0's "JWT Payload Format"): the credential's own members at the top, with `iss` the
 * issuer, `jti` the credential's id, `sub` the subject's identity hash (the subject has no `id`) and `nbf` `validFrom`.
 */
const jwtPayload = (credential: OpenBadgeCredential) => ({
  ...credential,
  iss: credential.issuer.id,
  jti: credential.id,
  sub: credential.credentialSubject.identifier[0]!.identityHash,
  nbf: Math.floor(new Date(credential.validFrom).getTime() / 1000),
});

/** The claims the same credential had in the VC Data Model 1.1 form (`LEGACY_CONTEXT`). */
function legacyJwtPayload(credential: OpenBadgeCredential) {
  const { iss, jti, sub, nbf } = jwtPayload(credential);
  const { validFrom, ...members } = credential;
  return { iss, jti, sub, nbf, vc: { ...members, '@context': [...LEGACY_CONTEXT], issuanceDate: validFrom } };
}

/**
 * The credential as a VC-JWT (RS256, the report service's key named by `kid`), claims as `jwtPayload` gives them.
 * Deterministic: the same certificate and key always give the same token.
 */
export function signCredential(credential: OpenBadgeCredential, keys: SigningKeys): Promise<string> {
  return new SignJWT(jwtPayload(credential))
    .setProtectedHeader({ alg: 'RS256', kid: keys.kid, typ: 'JWT' })
    .sign(keys.privateKey);
}

/** What a presented VC-JWT proves, before the stored certificate is asked: its code and all its claims. */
export type SignatureCheck = { ok: true; code: string; claims: unknown } | { ok: false };

/**
 * Whether a token is signed by one of this service's keys (current or retired) for this issuer, and which certificate
 * code it names. Anything else (another key, a changed byte, not a JWT) is not.
 */
export async function checkSignature(
  token: string,
  keys: SigningKeys,
  origin: string,
): Promise<SignatureCheck> {
  try {
    const { payload } = await jwtVerify(token.trim(), createLocalJWKSet(keys.jwks), {
      algorithms: ['RS256'],
      issuer: origin,
    });
    const prefix = `${origin}/api/verify/`;
    const jti = payload.jti ?? '';
    const match = jti.startsWith(prefix) ? /^([^/]+)\/credential$/.exec(jti.slice(prefix.length)) : null;
    if (!match) return { ok: false };
    return { ok: true, code: decodeURIComponent(match[1]!), claims: payload };
  } catch {
    return { ok: false };
  }
}

/**
 * True when a verified token's claims are exactly those of the stored certificate's credential, in the current form or
 * in the VC Data Model 1.1 form issued before it.
 */
export function sameClaims(
  check: Extract<SignatureCheck, { ok: true }>,
  expected: OpenBadgeCredential,
): boolean {
  return (
    isDeepStrictEqual(check.claims, jwtPayload(expected)) ||
    isDeepStrictEqual(check.claims, legacyJwtPayload(expected))
  );
}
