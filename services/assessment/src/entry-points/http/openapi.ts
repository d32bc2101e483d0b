import { describeService } from '@readiness/kit/openapi';
import { z } from 'zod';
import {
  assessmentOut,
  auditOut,
  fileOut,
  filenameParams,
  saveAssessmentBody,
  versionParams,
  versionSummaryOut,
} from './schemas';

const TAG = 'Assessment';
const one = z.object({ assessment: assessmentOut });

/** The assessment service's API, from the schemas its routes validate with. */
export const openApi = describeService({
  service: 'assessment',
  tags: [{ name: TAG, description: 'Versioned assessment content and question files' }],
  operations: {
    'GET /api/assessment': {
      summary: 'The active assessment version, answer key included',
      tags: [TAG],
      admin: true,
      responses: {
        200: { description: 'The active version', body: one },
        401: 'Not signed in',
        404: 'No assessment found',
      },
    },
    'PUT /api/assessment': {
      summary: 'Save the assessment as a new version, which becomes the active one',
      tags: [TAG],
      admin: true,
      body: saveAssessmentBody,
      responses: {
        200: { description: 'The new version', body: one },
        400: 'A validation rule is broken; no version is created',
        401: 'Not signed in',
        409: 'Someone else saved first (baseVersion is no longer the active version)',
      },
    },
    'GET /api/assessment/versions': {
      summary: 'Every version, newest first',
      tags: [TAG],
      admin: true,
      responses: {
        200: { description: 'The versions', body: z.object({ versions: z.array(versionSummaryOut) }) },
        401: 'Not signed in',
      },
    },
    'GET /api/assessment/versions/{version}': {
      summary: 'One version, whole',
      tags: [TAG],
      admin: true,
      params: versionParams,
      responses: {
        200: { description: 'The version', body: one },
        401: 'Not signed in',
        404: 'No such version',
      },
    },
    'POST /api/assessment/versions/{version}/activate': {
      summary: 'Make an earlier version the active one (nothing is rewritten)',
      tags: [TAG],
      admin: true,
      params: versionParams,
      responses: {
        200: { description: 'The version, now active', body: one },
        401: 'Not signed in',
        404: 'No such version',
      },
    },
    'GET /api/assessment/audit': {
      summary: 'The latest changes to the assessment: who, what, when',
      tags: [TAG],
      admin: true,
      responses: {
        200: { description: 'Newest first', body: z.object({ entries: z.array(auditOut) }) },
        401: 'Not signed in',
      },
    },
    'POST /api/assessment/upload-file': {
      summary:
        'Upload a question file (multipart, field `file`; jpg, jpeg, png, gif, pdf, doc, docx, txt, zip)',
      tags: [TAG],
      admin: true,
      responses: {
        201: { description: 'The stored file', body: z.object({ file: fileOut }) },
        400: 'Not an accepted file type',
        401: 'Not signed in',
        413: 'File is too large',
      },
    },
    'DELETE /api/assessment/file/{filename}': {
      summary: 'Delete an uploaded file; one a version still uses is only detached',
      tags: [TAG],
      admin: true,
      params: filenameParams,
      responses: {
        200: {
          description: 'Deleted, or detached',
          body: z.object({ message: z.string(), removed: z.boolean() }),
        },
        401: 'Not signed in',
        404: 'File not found',
      },
    },
    'GET /api/assessment/files/{filename}': {
      summary: 'Download a question file that a version refers to (public, as an attachment)',
      tags: [TAG],
      params: filenameParams,
      responses: { 200: { description: 'The file' }, 404: 'File not found' },
    },
  },
});
