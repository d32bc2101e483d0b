import { describeService } from '@readiness/kit/openapi';
import { codeParams, resultParams, signedLinkQuery, verificationOut } from './schemas';

const TAG = 'Reports';

/** The report service's API, from the schemas its routes validate with. */
export const openApi = describeService({
  service: 'report',
  tags: [{ name: TAG, description: 'PDF reports, certificates and their public verification' }],
  operations: {
    'GET /api/admin/results/{id}/pdf': {
      summary: 'The PDF report of one result (attachment assessment-report-{name}.pdf)',
      tags: [TAG],
      admin: true,
      params: resultParams,
      responses: {
        200: { description: 'application/pdf' },
        401: 'Not signed in',
        404: 'Result not found',
        503: 'PDF generation is temporarily unavailable (no browser yet, or busy)',
      },
    },
    'GET /api/admin/results/{id}/certificate': {
      summary: 'The certificate of a passed result (attachment certificate-{name}-{email}.pdf)',
      tags: [TAG],
      admin: true,
      params: resultParams,
      responses: {
        200: { description: 'application/pdf' },
        401: 'Not signed in',
        404: 'Result not found, or the result did not pass (code not_passed)',
        503: 'PDF generation is temporarily unavailable',
      },
    },
    'GET /api/certificates/{code}': {
      summary: 'Public verification of a certificate code: only what the certificate itself shows',
      tags: [TAG],
      params: codeParams,
      responses: {
        200: { description: 'A certificate with this code stands', body: verificationOut },
        404: 'No certificate has this code (never issued, or revoked)',
      },
    },
    'GET /api/certificates/{code}/pdf': {
      summary: 'The certificate PDF behind a signed, expiring link (report.certificate.issued.v1 carries it)',
      tags: [TAG],
      params: codeParams,
      query: signedLinkQuery,
      responses: {
        200: { description: 'application/pdf' },
        400: 'The link is malformed',
        403: 'The link has expired or its signature is wrong',
        404: 'No certificate has this code',
      },
    },
  },
});
