import { adminClaims } from '@readiness/kit/auth';
import { badRequest, notFound } from '@readiness/kit/errors';
import { uploadedFile } from '@readiness/kit/files';
import { listPage, pagination } from '@readiness/kit/openapi';
import { attachmentDisposition, sendAttachment } from '@readiness/kit/storage';
import type { ExportStatus } from '../../../domain/exports';
import { z } from 'zod';
import { TAGS, operation } from '../operation';
import { csvFile, csvRows, importOut, importQuery } from './csv-import';
import {
  idParams,
  invitationSent,
  inviteBody,
  listQuery,
  patchBody,
  reminderSettingsBody,
  reminderSettingsOut,
  remindBody,
  remindQuery,
  toReminderSettingsJson,
  studentFilter,
  studentOut,
  toStudentJson,
  withMessage,
} from './student-fields';

/** Every operation on the admin's students: tagged Students, for administrators only. */
const ADMIN_STUDENTS = { tags: [TAGS.students.name], admin: true };

/** A data export as the admin screen follows it. */
const exportOut = z.object({
  export: z.object({
    id: z.string(),
    requestedAt: z.string(),
    ready: z.boolean(),
    received: z.array(z.string()),
    waitingFor: z.array(z.string()),
    expiresAt: z.string(),
  }),
});

const toExportJson = (e: ExportStatus) => ({
  export: {
    id: e.id,
    requestedAt: e.requestedAt.toISOString(),
    ready: e.ready,
    received: e.received,
    waitingFor: e.waitingFor,
    expiresAt: e.expiresAt.toISOString(),
  },
});

const adminFileParams = z.object({
  studentId: z.string(),
  attemptId: z.string(),
  questionId: z.string(),
});

/**
 * The admin's students (under /api/admin/students, behind the runtime's admin guard): the list, invitations one
 * by one or from a CSV, the extra-time accommodation, erasure and the download of an answer file.
 */
export const adminStudents = {
  'GET /api/admin/students': operation({
    summary: 'Students, newest first: search (name or e-mail), status, page and limit (at most 100)',
    ...ADMIN_STUDENTS,
    query: listQuery,
    responses: {
      200: { description: 'One page', body: listPage({ students: z.array(studentOut) }) },
      400: 'A query parameter is out of range',
    },
    async handle({ query: q }, { students }) {
      const { students: found, total } = await students.list({
        ...studentFilter(q),
        page: q.page,
        limit: q.limit,
      });
      return { students: found.map(toStudentJson), pagination: pagination(q.page, q.limit, total) };
    },
  }),
  'POST /api/admin/students/invite': operation({
    summary: 'Invite a student; the invitation mail is queued',
    ...ADMIN_STUDENTS,
    body: inviteBody,
    responses: {
      201: { description: 'The student', body: withMessage },
      400: 'A validation rule is broken',
      409: 'A student with this email is already invited',
    },
    handle: async ({ body, res }, { students }) =>
      invitationSent(await students.invite(body, adminClaims(res).sub)),
  }),
  'POST /api/admin/students/import': operation({
    summary:
      'Invite students from a CSV (multipart field file; name,email,phoneNumber,extraTimePercent,language)',
    ...ADMIN_STUDENTS,
    query: importQuery,
    responses: {
      200: { description: 'Every row problem by line; with dryRun nothing is saved', body: importOut },
      400: 'No file, or no header line naming name and email',
      409: 'An e-mail was invited meanwhile; nothing was imported',
      413: 'The file is too large',
    },
    before: (deps) => [csvFile(deps.importMaxBytes)],
    async handle({ query, req, res }, { students, importMaxRows }) {
      const file = uploadedFile(req);
      if (!file) throw badRequest('Choose a CSV file to import', 'file_required');
      const rows = csvRows(file.buffer.toString('utf8'), importMaxRows);
      return students.importRows(rows, { dryRun: query.dryRun, actorId: adminClaims(res).sub });
    },
  }),
  'POST /api/admin/students/{id}/resend-assessment': operation({
    summary: 'Resend the invitation; an unstarted invitation gets a new link and a new expiry',
    ...ADMIN_STUDENTS,
    params: idParams,
    responses: {
      200: { description: 'The student', body: withMessage },
      404: 'Student not found',
    },
    handle: async ({ params, res }, { students }) =>
      invitationSent(await students.resend(params.id, adminClaims(res).sub)),
  }),
  'POST /api/admin/students/{id}/remind': operation({
    summary:
      'Send a reminder now: the invitation mailed again with the same link and expiry (student.reminder.requested.v1)',
    ...ADMIN_STUDENTS,
    params: idParams,
    responses: {
      202: { description: 'The reminder is queued; the student as the list shows them', body: withMessage },
      404: 'Student not found',
      409: 'The student has started, the invitation has expired, or the student was reminded today',
    },
    async handle({ params, res }, { students }) {
      const student = await students.remind(params.id, adminClaims(res).sub);
      return { message: `Reminder sent to ${student.name}`, student: toStudentJson(student) };
    },
  }),
  'POST /api/admin/students/remind': operation({
    summary:
      'Send a reminder now to every student of the filter who can get one (invited, link open, not reminded today)',
    ...ADMIN_STUDENTS,
    query: remindQuery,
    body: remindBody,
    responses: {
      202: {
        description: 'How many were reminded (with dryRun: would be)',
        body: z.object({ count: z.number().int() }),
      },
      400: 'A filter value is out of range',
    },
    async handle({ query, body, res }, { students }) {
      const count = await students.remindFiltered(studentFilter(body), {
        dryRun: query.dryRun,
        actorId: adminClaims(res).sub,
      });
      return { count };
    },
  }),
  'GET /api/admin/students/reminder-settings': operation({
    summary:
      'When invited students who have not started are reminded (the saved settings, else the configuration)',
    ...ADMIN_STUDENTS,
    responses: { 200: { description: 'The reminder settings', body: reminderSettingsOut } },
    handle: async (_, { students }) => toReminderSettingsJson(await students.reminderSettings()),
  }),
  'PUT /api/admin/students/reminder-settings': operation({
    summary:
      'Set when invited students who have not started are reminded; the job follows from its next pass',
    ...ADMIN_STUDENTS,
    body: reminderSettingsBody,
    responses: {
      200: { description: 'The reminder settings', body: reminderSettingsOut },
      400: 'A value is out of range',
    },
    handle: async ({ body, res }, { students }) =>
      toReminderSettingsJson(await students.updateReminderSettings(body, adminClaims(res).sub)),
  }),
  'PATCH /api/admin/students/{id}': operation({
    summary: 'Set the extra-time accommodation (0 to 300 percent)',
    ...ADMIN_STUDENTS,
    params: idParams,
    body: patchBody,
    responses: {
      200: { description: 'The student', body: z.object({ student: studentOut }) },
      400: 'Out of range',
      404: 'Student not found',
    },
    async handle({ params, body, res }, { students }) {
      const student = await students.setExtraTime(params.id, body.extraTimePercent, adminClaims(res).sub);
      return { student: toStudentJson(student) };
    },
  }),
  'DELETE /api/admin/students/{id}': operation({
    summary: 'Erase the student everywhere (student.student.deleted.v1); cannot be undone',
    ...ADMIN_STUDENTS,
    params: idParams,
    responses: {
      200: { description: 'Deleted', body: z.object({ message: z.string() }) },
      404: 'Student not found',
    },
    async handle({ params, res }, { students }) {
      await students.remove(params.id, adminClaims(res).sub);
      return { message: 'Student deleted successfully' };
    },
  }),
  'POST /api/admin/students/{id}/export': operation({
    summary:
      'Ask every service for what it holds about the student (student.export.requested.v1); audited. A request gathering or ready is answered as it stands',
    ...ADMIN_STUDENTS,
    params: idParams,
    responses: {
      202: { description: 'The export, gathering (or ready)', body: exportOut },
      404: 'Student not found',
    },
    handle: async ({ params, res }, { exports }) =>
      toExportJson(await exports.request(params.id, adminClaims(res).sub)),
  }),
  'GET /api/admin/students/{id}/export/status': operation({
    summary: "The student's newest data export that can still be downloaded: which services have answered",
    ...ADMIN_STUDENTS,
    params: idParams,
    responses: {
      200: { description: 'The export', body: exportOut },
      404: 'No export requested for this student (or it expired)',
    },
    async handle({ params }, { exports }) {
      const status = await exports.status(params.id);
      if (!status) throw notFound('No data export was requested for this student', 'export_not_found');
      return toExportJson(status);
    },
  }),
  'GET /api/admin/students/{id}/export': operation({
    summary:
      'Everything the product holds about the student as one ZIP (README.txt, a folder per service) when the export is ready; while it gathers, 202 with its status (an export is requested when there is none)',
    ...ADMIN_STUDENTS,
    params: idParams,
    responses: {
      200: { description: 'The ZIP (attachment)' },
      202: { description: 'Gathering: ask again (Retry-After)', body: exportOut },
      404: 'Student not found',
    },
    async handle({ params, res, answer }, { exports }) {
      const ready = await exports.download(params.id);
      if (!ready) {
        const status =
          (await exports.status(params.id)) ?? (await exports.request(params.id, adminClaims(res).sub));
        res.setHeader('Retry-After', '2');
        return answer(202, toExportJson(status));
      }
      res.setHeader('Content-Type', 'application/zip');
      res.setHeader('Content-Disposition', attachmentDisposition(ready.fileName));
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('X-Content-Type-Options', 'nosniff');
      await ready.write(res);
      res.end();
    },
  }),
  'GET /api/admin/students/{studentId}/attempts/{attemptId}/files/{questionId}': operation({
    summary: "Download a student's answer file (attachment, nosniff)",
    ...ADMIN_STUDENTS,
    params: adminFileParams,
    responses: { 200: { description: 'The file' }, 404: 'File not found' },
    async handle({ params, res }, { attempts }) {
      const { file, body } = await attempts.adminFile(params);
      sendAttachment(res, file, body);
    },
  }),
};
