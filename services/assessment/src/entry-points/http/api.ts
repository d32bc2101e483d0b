import { adminClaims, bearerToken } from '@readiness/kit/auth';
import { badRequest } from '@readiness/kit/errors';
import { multipartBody, uploadedFile, uploadedName } from '@readiness/kit/files';
import { operationsFor, serviceApi } from '@readiness/kit/openapi';
import { sendAttachment } from '@readiness/kit/storage';
import type { Express, RequestHandler, Response } from 'express';
import { Readable } from 'node:stream';
import { z } from 'zod';
import type { VersionSummary } from '../../data-access/versions-repository';
import type { AssessmentVersion } from '../../domain/assessment';
import type { Actor, Assessments } from '../../domain/assessments';
import { EXPORT_FORMATS } from '../../domain/export-version';
import { fileTooLarge } from '../../domain/files';
import { outdatedTranslations } from '../../domain/translation-review';
import {
  assessmentOut,
  auditOut,
  fileOut,
  filenameParams,
  importOut,
  saveAssessmentBody,
  versionParams,
  versionSummaryOut,
} from './schemas';

const ASSESSMENT_PREFIX = '/api/assessment';

const TAG = 'Assessment';
const one = z.object({ assessment: assessmentOut });

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
  shuffleQuestions: v.shuffleQuestions,
  shuffleOptions: v.shuffleOptions,
  practiceQuestion: v.practiceQuestion,
  translations: v.translations,
  outdatedTranslations: outdatedTranslations(v, v.translationSources),
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

export interface AssessmentApiDeps {
  assessments: Assessments;
  /** The runtime's admin check: every route under /api/assessment needs it but the public file download. */
  adminGuard: RequestHandler;
  maxFileBytes: number;
  /** Largest file `POST /api/assessment/import` reads. */
  maxImportBytes: number;
}

/** The acting admin, named from auth's events (or asked of auth once with their own token). */
const actor = async (res: Response, assessments: Assessments): Promise<Actor> => {
  const id = adminClaims(res).sub;
  return { id, name: await assessments.actorName(id, bearerToken(res.req.headers.authorization)) };
};

const admin = (deps: AssessmentApiDeps) => [deps.adminGuard];

/** A one-file upload: memory only, every limit set, the size cap enforced while reading (413, nothing stored). */
const oneFile = (deps: AssessmentApiDeps, maxBytes: number) => [
  deps.adminGuard,
  multipartBody({
    field: 'file',
    limits: { fileSize: maxBytes, files: 1, fields: 5 },
    tooLarge: () => fileTooLarge(maxBytes),
    badUpload: 'Send one file in the field "file"',
  }),
];

const operation = operationsFor<AssessmentApiDeps>();

/** The assessment service's API, each operation declared once: versioned content and question files. */
export const assessmentApi = serviceApi<AssessmentApiDeps>({
  service: 'assessment',
  tags: [{ name: TAG, description: 'Versioned assessment content and question files' }],
  operations: {
    'GET /api/assessment/files/{filename}': operation({
      summary: 'Download a question file that a version refers to (public, as an attachment)',
      tags: [TAG],
      params: filenameParams,
      responses: { 200: { description: 'The file' }, 404: 'File not found' },
      async handle({ params, res }, { assessments }) {
        const { file, body } = await assessments.download(params.filename);
        sendAttachment(res, file, body, 'private, max-age=300');
      },
    }),
    'GET /api/assessment': operation({
      summary: 'The active assessment version, answer key included',
      tags: [TAG],
      admin: true,
      before: admin,
      responses: {
        200: { description: 'The active version', body: one },
        401: 'Not signed in',
        404: 'No assessment found',
      },
      handle: async (_input, { assessments }) => ({
        assessment: toAssessmentJson(await assessments.active()),
      }),
    }),
    'PUT /api/assessment': operation({
      summary: 'Save the assessment as a new version, which becomes the active one',
      tags: [TAG],
      admin: true,
      before: admin,
      body: saveAssessmentBody,
      responses: {
        200: { description: 'The new version', body: one },
        400: 'A validation rule is broken; no version is created',
        401: 'Not signed in',
        409: 'Someone else saved first (baseVersion is no longer the active version)',
      },
      async handle({ body, res }, { assessments }) {
        const { reviewedTranslations, ...content } = body;
        const saved = await assessments.save({
          content,
          reviewedTranslations,
          changeNotes: body.changeNotes,
          baseVersion: body.baseVersion ?? body.version ?? undefined,
          actor: await actor(res, assessments),
        });
        return { assessment: toAssessmentJson(saved!) };
      },
    }),
    'GET /api/assessment/versions': operation({
      summary: 'Every version, newest first',
      tags: [TAG],
      admin: true,
      before: admin,
      responses: {
        200: { description: 'The versions', body: z.object({ versions: z.array(versionSummaryOut) }) },
        401: 'Not signed in',
      },
      handle: async (_input, { assessments }) => ({
        versions: (await assessments.versions()).map(toSummaryJson),
      }),
    }),
    'GET /api/assessment/versions/{version}': operation({
      summary: 'One version, whole',
      tags: [TAG],
      admin: true,
      before: admin,
      params: versionParams,
      responses: {
        200: { description: 'The version', body: one },
        401: 'Not signed in',
        404: 'No such version',
      },
      handle: async ({ params }, { assessments }) => ({
        assessment: toAssessmentJson(await assessments.version(params.version)),
      }),
    }),
    'GET /api/assessment/versions/{version}/export': operation({
      summary:
        'One version as Moodle XML (one category per section) or a QTI 3.0 content package (ZIP), its question files included',
      tags: [TAG],
      admin: true,
      before: admin,
      params: versionParams,
      query: z.object({
        format: z.enum(EXPORT_FORMATS, { error: 'format must be moodle-xml or qti3' }),
      }),
      responses: {
        200: { description: 'The file, as an attachment' },
        400: 'An unknown format',
        401: 'Not signed in',
        404: 'No such version',
      },
      async handle({ params, query, res }, { assessments }) {
        const file = await assessments.exportVersion(params.version, query.format);
        sendAttachment(
          res,
          { originalName: file.name, mimetype: file.mimetype, size: file.data.length },
          Readable.from([file.data]),
          'no-store',
        );
      },
    }),
    'POST /api/assessment/versions/{version}/activate': operation({
      summary: 'Make an earlier version the active one (nothing is rewritten)',
      tags: [TAG],
      admin: true,
      before: admin,
      params: versionParams,
      responses: {
        200: { description: 'The version, now active', body: one },
        401: 'Not signed in',
        404: 'No such version',
      },
      async handle({ params, res }, { assessments }) {
        const activated = await assessments.activate(params.version, await actor(res, assessments));
        return { assessment: toAssessmentJson(activated) };
      },
    }),
    'GET /api/assessment/audit': operation({
      summary: 'The latest changes to the assessment: who, what, when',
      tags: [TAG],
      admin: true,
      before: admin,
      responses: {
        200: { description: 'Newest first', body: z.object({ entries: z.array(auditOut) }) },
        401: 'Not signed in',
      },
      async handle(_input, { assessments }) {
        const entries = await assessments.auditLog(200);
        return {
          entries: entries.map((e) => ({
            at: e.at.toISOString(),
            actor: { id: e.actorId, name: e.actorName },
            action: e.action,
            details: e.details,
          })),
        };
      },
    }),
    'POST /api/assessment/upload-file': operation({
      summary:
        'Upload a question file (multipart, field `file`; jpg, jpeg, png, gif, pdf, doc, docx, txt, zip)',
      tags: [TAG],
      admin: true,
      before: (deps) => oneFile(deps, deps.maxFileBytes),
      responses: {
        201: { description: 'The stored file', body: z.object({ file: fileOut }) },
        400: 'Not an accepted file type',
        401: 'Not signed in',
        413: 'File is too large',
      },
      async handle({ req, res }, { assessments }) {
        const upload = uploadedFile(req);
        if (!upload) throw badRequest('Choose a file to upload', 'file_required');
        const file = await assessments.upload(
          uploadedName(upload),
          upload.buffer,
          await actor(res, assessments),
        );
        return { file: { originalName: file.originalName, filename: file.filename, size: file.size } };
      },
    }),
    'POST /api/assessment/import': operation({
      summary:
        'Read a Moodle XML file, a QTI 3.0/2.1 package or a Canvas QTI 1.2 export (multipart, field `file`) into editor content: nothing of the assessment is saved',
      tags: [TAG],
      admin: true,
      // The package's own limits (files in it, bytes once unpacked) are checked before anything is unpacked.
      before: (deps) => oneFile(deps, deps.maxImportBytes),
      responses: {
        200: {
          description:
            'The content as `PUT /api/assessment` takes it, how many sections and questions of each type it makes, and each item left out with its reason; files the items embed are stored as uploads',
          body: importOut,
        },
        400: 'Not a file that is read, not well-formed, a DTD, or a path outside the package',
        401: 'Not signed in',
        413: 'The file, the unpacked package or its number of items is over the limit',
      },
      async handle({ req, res }, deps) {
        const upload = uploadedFile(req);
        if (!upload) throw badRequest('Choose a file to import', 'file_required');
        const preview = await deps.assessments.importFile(
          upload.buffer,
          deps.maxFileBytes,
          await actor(res, deps.assessments),
        );
        return {
          ...preview,
          content: {
            ...preview.content,
            questions: preview.content.questions.map((q) => ({
              ...q,
              hasDownloadableFile: Boolean(q.downloadableFile),
            })),
          },
        };
      },
    }),
    'DELETE /api/assessment/file/{filename}': operation({
      summary: 'Delete an uploaded file; one a version still uses is only detached',
      tags: [TAG],
      admin: true,
      before: admin,
      params: filenameParams,
      responses: {
        200: {
          description: 'Deleted, or detached',
          body: z.object({ message: z.string(), removed: z.boolean() }),
        },
        401: 'Not signed in',
        404: 'File not found',
      },
      async handle({ params, res }, { assessments }) {
        const { removed } = await assessments.removeFile(params.filename, await actor(res, assessments));
        return { message: removed ? 'File deleted' : 'File detached; versions that use it keep it', removed };
      },
    }),
  },
});

/**
 * The routes, and the admin check on every other path under /api/assessment: an unknown one answers 401 to a
 * caller without a token, as it did when the whole prefix was guarded.
 */
export const assessmentRoutes = (deps: AssessmentApiDeps) => (app: Express) => {
  assessmentApi.routes(deps)(app);
  app.use(ASSESSMENT_PREFIX, deps.adminGuard);
};
