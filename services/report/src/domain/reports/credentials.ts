import { shownPercentage } from '@readiness/contracts';
import { findCertificateByCode, isRevoked } from '../../data-access/reports-repository';
import type { CertificateRecord } from '../../data-access/records';
import { checkSignature, openBadgeCredential, sameClaims, signCredential } from '../credentials/open-badge';
import { noCertificate, normaliseCode, type ReportsDeps } from './context';

const issuerOf = (deps: ReportsDeps) => ({ origin: deps.credentials.origin, name: deps.providerName });

const credentialOf = (deps: ReportsDeps, c: CertificateRecord) =>
  openBadgeCredential(
    {
      code: c.code,
      email: c.email,
      assessmentTitle: c.assessmentTitle,
      score: c.score,
      totalPoints: c.totalPoints,
      issuedAt: c.issuedAt!,
    },
    issuerOf(deps),
  );

/** The Open Badges 3.0 credential of an issued certificate, as a VC-JWT; none for a code that is not one. */
export async function certificateCredential(
  deps: ReportsDeps,
  code: string,
): Promise<{ token: string; code: string }> {
  const certificate = await findCertificateByCode(deps.database.db, normaliseCode(code));
  if (!certificate || certificate.status !== 'issued') throw noCertificate();
  return {
    token: await signCredential(credentialOf(deps, certificate), deps.credentials.keys),
    code: certificate.code,
  };
}

export type CredentialCheck =
  | {
      status: 'genuine';
      code: string;
      name: string;
      assessmentTitle: string;
      percentage: number;
      issuedAt: string;
    }
  | { status: 'revoked'; code: string }
  | { status: 'altered' };

/**
 * Whether a presented VC-JWT is one of ours and still stands: `genuine` when its signature holds and its claims are
 * those of the issued certificate its id names; `revoked` when that certificate was erased (its result or student
 * deleted); `altered` when the signature fails, the code is unknown, or the claims differ from the certificate.
 */
export async function checkCredential(deps: ReportsDeps, token: string): Promise<CredentialCheck> {
  const signed = await checkSignature(token, deps.credentials.keys, deps.credentials.origin);
  if (!signed.ok) return { status: 'altered' };
  const code = normaliseCode(signed.code);
  const certificate = await findCertificateByCode(deps.database.db, code);
  if (certificate?.status === 'issued' && sameClaims(signed, credentialOf(deps, certificate))) {
    return {
      status: 'genuine',
      code,
      name: certificate.name,
      assessmentTitle: certificate.assessmentTitle,
      percentage: shownPercentage(certificate.score, certificate.totalPoints),
      issuedAt: certificate.issuedAt!.toISOString(),
    };
  }
  if (!certificate && (await isRevoked(deps.database.db, code))) return { status: 'revoked', code };
  return { status: 'altered' };
}
