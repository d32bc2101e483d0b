import { ReportDocument } from '@readiness/contracts';
import { adminClaims } from '@readiness/kit/auth';
import { notFound } from '@readiness/kit/errors';
import { NO_STORE } from '@readiness/kit/http';
import { operationsFor, serviceApi } from '@readiness/kit/openapi';
import { attachmentDisposition } from '@readiness/kit/storage';
import type { Response } from 'express';
import type { PdfFile, Reports } from '../../domain/reports';
import {
  codeParams,
  credentialBody,
  credentialCheckOut,
  jwksOut,
  resultParams,
  signedLinkQuery,
  verificationOut,
} from './schemas';

const TAG = 'Reports';
const BADGES = 'Open Badges';

function sendPdf(res: Response, file: PdfFile): void {
  res.setHeader('Content-Type', 'application/pdf');
  res.setHeader('Content-Disposition', attachmentDisposition(file.fileName));
  res.setHeader('Content-Length', String(file.pdf.length));
  res.setHeader('Cache-Control', NO_STORE);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(file.pdf);
}

/** A code that cannot be one is answered like an unknown one. */
const noCertificate = () => notFound('No certificate has this code');

const operation = operationsFor<Reports>();

/** A PDF of one result for an admin, rendered (or read from the bucket) on request. */
const adminPdf = (
  summary: string,
  missing: string,
  pdf: (reports: Reports, id: string) => Promise<PdfFile>,
  document: ReportDocument,
) =>
  operation({
    summary,
    tags: [TAG],
    admin: true,
    params: resultParams,
    responses: {
      200: { description: 'application/pdf' },
      401: 'Not signed in',
      404: missing,
      503: 'PDF generation is temporarily unavailable (no browser yet, or busy)',
    },
    async handle({ params, res }, reports) {
      const file = await pdf(reports, params.id);
      // In the audit log before the file leaves.
      await reports.downloaded({
        actorId: adminClaims(res).sub,
        resultId: params.id,
        document,
        fileName: file.fileName,
      });
      sendPdf(res, file);
    },
  });

/**
 * The report service's API, each operation declared once: admin PDF downloads (guarded by the runtime on
 * /api/admin) and the public verification.
 */
export const reportApi = serviceApi<Reports>({
  service: 'report',
  tags: [
    { name: TAG, description: 'PDF reports, certificates and their public verification' },
    { name: BADGES, description: 'Certificates as Open Badges 3.0 credentials (VC-JWT) and their check' },
  ],
  operations: {
    'GET /api/admin/results/{id}/pdf': adminPdf(
      'The PDF report of one result (attachment assessment-report-{name}.pdf)',
      'Result not found',
      (reports, id) => reports.reportPdf(id),
      ReportDocument.REPORT,
    ),
    'GET /api/admin/results/{id}/certificate': adminPdf(
      'The certificate of a passed result (attachment certificate-{name}-{email}.pdf)',
      'Result not found, or the result did not pass (code not_passed)',
      (reports, id) => reports.certificatePdf(id),
      ReportDocument.CERTIFICATE,
    ),
    'GET /api/certificates/{code}': operation({
      summary: 'Public verification of a certificate code: only what the certificate itself shows',
      tags: [TAG],
      params: codeParams,
      invalidParams: noCertificate,
      responses: {
        200: { description: 'A certificate with this code stands', body: verificationOut },
        404: 'No certificate has this code (never issued, or revoked)',
      },
      handle: ({ params }, reports) => reports.verify(params.code),
    }),
    'GET /api/certificates/{code}/pdf': operation({
      summary: 'The certificate PDF behind a signed, expiring link (report.certificate.issued.v2 carries it)',
      tags: [TAG],
      params: codeParams,
      invalidParams: noCertificate,
      query: signedLinkQuery,
      responses: {
        200: { description: 'application/pdf' },
        400: 'The link is malformed',
        403: 'The link has expired or its signature is wrong',
        404: 'No certificate has this code',
      },
      async handle({ params, query, res }, reports) {
        sendPdf(res, await reports.signedCertificate(params.code, query.expires, query.signature));
      },
    }),
    'GET /api/verify/{code}/credential': operation({
      summary:
        "The certificate's Open Badges 3.0 OpenBadgeCredential, signed as a VC-JWT (attachment certificate-{code}.jwt)",
      tags: [BADGES],
      params: codeParams,
      invalidParams: noCertificate,
      responses: {
        200: { description: 'application/vc+ld+json+jwt: the compact JWS' },
        404: 'No certificate has this code (never issued, not issued yet, or revoked)',
      },
      async handle({ params, res }, reports) {
        const { token, code } = await reports.credential(params.code);
        res.setHeader('Content-Type', 'application/vc+ld+json+jwt');
        res.setHeader('Content-Disposition', attachmentDisposition(`certificate-${code}.jwt`));
        res.setHeader('Cache-Control', NO_STORE);
        res.setHeader('X-Content-Type-Options', 'nosniff');
        res.end(token);
      },
    }),
    'POST /api/verify/credential': operation({
      summary:
        'Whether a presented credential is genuine, revoked (its result or student deleted) or altered',
      tags: [BADGES],
      body: credentialBody,
      responses: {
        200: {
          description: 'The answer: genuine (with what the certificate shows), revoked or altered',
          body: credentialCheckOut,
        },
        400: 'No credential given',
      },
      handle: ({ body }, reports) => reports.checkCredential(body.credential),
    }),
    'GET /api/verify/jwks': operation({
      summary:
        'The public keys (RS256) that check the credentials: the current one and retired ones still valid',
      tags: [BADGES],
      responses: { 200: { description: 'A JSON Web Key Set', body: jwksOut } },
      handle({ res }, reports) {
        res.setHeader('Cache-Control', 'public, max-age=300');
        return reports.credentialKeys();
      },
    }),
  },
});
