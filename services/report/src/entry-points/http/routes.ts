import { notFound } from '@readiness/kit/errors';
import { NO_STORE, parse } from '@readiness/kit/http';
import { attachmentDisposition } from '@readiness/kit/storage';
import type { Express, Response } from 'express';
import type { PdfFile, Reports } from '../../domain/reports';
import { codeParams, resultParams, signedLinkQuery } from './schemas';

function sendPdf(res: Response, file: PdfFile): void {
  res.setHeader('Content-Type', 'application/pdf');
  res.setHeader('Content-Disposition', attachmentDisposition(file.fileName));
  res.setHeader('Content-Length', String(file.pdf.length));
  res.setHeader('Cache-Control', NO_STORE);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(file.pdf);
}

/** A code that cannot be one is answered like an unknown one. */
const code = (params: unknown) => {
  const parsed = codeParams.safeParse(params);
  if (!parsed.success) throw notFound('No certificate has this code');
  return parsed.data.code;
};

/** Admin PDF downloads (guarded by the runtime on /api/admin) and the public verification. */
export const reportRoutes = (reports: Reports) => (app: Express) => {
  app.get('/api/admin/results/:id/pdf', async (req, res) => {
    const { id } = parse(resultParams, req.params);
    sendPdf(res, await reports.reportPdf(id));
  });
  app.get('/api/admin/results/:id/certificate', async (req, res) => {
    const { id } = parse(resultParams, req.params);
    sendPdf(res, await reports.certificatePdf(id));
  });
  app.get('/api/certificates/:code', async (req, res) => {
    res.json(await reports.verify(code(req.params)));
  });
  app.get('/api/certificates/:code/pdf', async (req, res) => {
    const { expires, signature } = parse(signedLinkQuery, req.query);
    sendPdf(res, await reports.signedCertificate(code(req.params), expires, signature));
  });
};
