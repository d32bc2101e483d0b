import { adminClaims, bearerToken } from '@readiness/kit/auth';
import { badRequest } from '@readiness/kit/errors';
import { multipartBody, uploadedFile, uploadedName } from '@readiness/kit/files';
import { parse } from '@readiness/kit/http';
import { attachmentDisposition } from '@readiness/kit/storage';
import type { Express, RequestHandler, Response } from 'express';
import type { AssessmentVersion } from '../../domain/assessment';
import type { Actor, Assessments } from '../../domain/assessments';
import { fileTooLarge } from '../../domain/files';
import type { VersionSummary } from '../../data-access/versions-repository';
import { filenameParams, saveAssessmentBody, versionParams } from './schemas';

export const ASSESSMENT_PREFIX = '/api/assessment';

const toAssessmentJson = (v: AssessmentVersion) => ({
  id: v.id,
  version: v.version,
  isActive: v.isActive,
  title: v.title,
  description: v.description,
  timeLimit: v.timeLimit,
  passingScore: v.passingScore,
  sections: v.sections,
  questions: v.questions.map((q) => ({ ...q, hasDownloadableFile: Boolean(q.downloadableFile) })),
  changeNotes: v.changeNotes,
  createdAt: v.createdAt.toISOString(),
  createdBy: { name: v.createdBy.name },
});

const toSummaryJson = (v: VersionSummary) => ({
  id: v.id,
  version: v.version,
  isActive: v.isActive,
  title: v.title,
  changeNotes: v.changeNotes,
  createdAt: v.createdAt.toISOString(),
  createdBy: { name: v.createdBy.name },
  sectionCount: v.sectionCount,
  questionCount: v.questionCount,
});

/** The one-file upload: memory only, every limit set, the size cap enforced while reading (413, nothing stored). */
const singleFile = (maxBytes: number) =>
  multipartBody({
    field: 'file',
    limits: { fileSize: maxBytes, files: 1, fields: 5 },
    tooLarge: () => fileTooLarge(maxBytes),
    badUpload: 'Send one file in the field "file"',
  });

/**
 * The assessment's routes. The question-file download is public (students fetch it through the gateway); every
 * other route under /api/assessment needs an admin token, checked with the runtime's admin guard.
 */
export function assessmentRoutes(deps: {
  assessments: Assessments;
  adminGuard: RequestHandler;
  maxFileBytes: number;
}): (app: Express) => void {
  const { assessments } = deps;
  const actor = async (res: Response): Promise<Actor> => {
    const id = adminClaims(res).sub;
    return { id, name: await assessments.actorName(id, bearerToken(res.req.headers.authorization)) };
  };

  return (app) => {
    app.get(`${ASSESSMENT_PREFIX}/files/:filename`, async (req, res) => {
      const { filename } = parse(filenameParams, req.params);
      const { file, body } = await assessments.download(filename);
      res.setHeader('Content-Type', file.mimetype);
      res.setHeader('Content-Length', String(file.size));
      res.setHeader('Content-Disposition', attachmentDisposition(file.originalName));
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Cache-Control', 'private, max-age=300');
      body.on('error', (err) => res.destroy(err));
      body.pipe(res);
    });

    app.use(ASSESSMENT_PREFIX, deps.adminGuard);

    app.get(ASSESSMENT_PREFIX, async (_req, res) => {
      res.json({ assessment: toAssessmentJson(await assessments.active()) });
    });
    app.put(ASSESSMENT_PREFIX, async (req, res) => {
      const body = parse(saveAssessmentBody, req.body);
      const saved = await assessments.save({
        content: body,
        changeNotes: body.changeNotes,
        baseVersion: body.baseVersion ?? body.version ?? undefined,
        actor: await actor(res),
      });
      res.json({ assessment: toAssessmentJson(saved!) });
    });
    app.get(`${ASSESSMENT_PREFIX}/versions`, async (_req, res) => {
      res.json({ versions: (await assessments.versions()).map(toSummaryJson) });
    });
    app.get(`${ASSESSMENT_PREFIX}/versions/:version`, async (req, res) => {
      const { version } = parse(versionParams, req.params);
      res.json({ assessment: toAssessmentJson(await assessments.version(version)) });
    });
    app.post(`${ASSESSMENT_PREFIX}/versions/:version/activate`, async (req, res) => {
      const { version } = parse(versionParams, req.params);
      res.json({ assessment: toAssessmentJson(await assessments.activate(version, await actor(res))) });
    });
    app.get(`${ASSESSMENT_PREFIX}/audit`, async (_req, res) => {
      const entries = await assessments.auditLog(200);
      res.json({
        entries: entries.map((e) => ({
          at: e.at.toISOString(),
          actor: { id: e.actorId, name: e.actorName },
          action: e.action,
          details: e.details,
        })),
      });
    });
    app.post(`${ASSESSMENT_PREFIX}/upload-file`, singleFile(deps.maxFileBytes), async (req, res) => {
      const upload = uploadedFile(req);
      if (!upload) throw badRequest('Choose a file to upload', 'file_required');
      const originalName = uploadedName(upload);
      const file = await assessments.upload(originalName, upload.buffer, await actor(res));
      res.status(201).json({
        file: { originalName: file.originalName, filename: file.filename, size: file.size },
      });
    });
    app.delete(`${ASSESSMENT_PREFIX}/file/:filename`, async (req, res) => {
      const { filename } = parse(filenameParams, req.params);
      const { removed } = await assessments.removeFile(filename, await actor(res));
      res.json({
        message: removed ? 'File deleted' : 'File detached; versions that use it keep it',
        removed,
      });
    });
  };
}
