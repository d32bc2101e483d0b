import { adminClaims } from '@readiness/kit/auth';
import { AppError, badRequest } from '@readiness/kit/errors';
import { parse } from '@readiness/kit/http';
import { multipartBody, uploadedFile } from '@readiness/kit/files';
import type { Express, Response } from 'express';
import { parseCsv } from '../../domain/csv';
import type { StudentInput, Students, StudentView } from '../../domain/students';
import { csvRow, idParams, importQuery, inviteBody, listQuery, patchBody, tokenParams } from './schemas';

export const STUDENTS_PREFIX = '/api/admin/students';

export const toStudentJson = (s: StudentView) => ({
  _id: s.id,
  name: s.name,
  email: s.email,
  phoneNumber: s.phoneNumber ?? undefined,
  status: s.status,
  inviteToken: s.inviteToken,
  inviteUrl: s.inviteUrl,
  extraTimePercent: s.extraTimePercent,
  createdAt: s.createdAt.toISOString(),
  invitedAt: s.invitedAt.toISOString(),
  expiresAt: s.expiresAt.toISOString(),
  expired: s.expired,
});

const CSV_COLUMNS = ['name', 'email', 'phoneNumber', 'extraTimePercent'] as const;

/** The rows of an uploaded CSV, each validated with the invite rules, the header row naming the columns. */
function csvRows(text: string, maxRows: number) {
  const records = parseCsv(text);
  const header = records.shift();
  if (records.length > maxRows) {
    throw new AppError(
      'too_many_rows',
      `The file has ${records.length.toLocaleString('en-US')} students; import at most ${maxRows.toLocaleString('en-US')} at a time (split the file)`,
      413,
    );
  }
  const names = (header?.fields ?? []).map((f) => f.trim());
  if (!names.includes('name') || !names.includes('email')) {
    throw badRequest(`The first line must name the columns: ${CSV_COLUMNS.join(',')}`, 'bad_csv');
  }
  return records.map((r) => {
    const raw: Record<string, string> = {};
    names.forEach((n, i) => {
      if ((CSV_COLUMNS as readonly string[]).includes(n)) raw[n] = r.fields[i] ?? '';
    });
    const result = csvRow.safeParse(raw);
    const parsed = result.success
      ? { ok: true as const, value: result.data as StudentInput }
      : { ok: false as const, email: (raw.email ?? '').trim(), message: result.error.issues[0]!.message };
    return { line: r.line, parsed };
  });
}

/** The one CSV file of an import, in memory, every limit set, the size cap enforced while reading. */
const csvFile = (maxBytes: number) =>
  multipartBody({
    field: 'file',
    limits: { fileSize: maxBytes, files: 1, fields: 5 },
    tooLarge: () => new AppError('file_too_large', `The file is larger than ${maxBytes} bytes`, 413),
    badUpload: 'Send one CSV file in the field "file"',
  });

/**
 * The admin routes under /api/admin/students (the runtime's admin guard checks every /api/admin call) and the
 * public invitation look-up the student flow starts from.
 */
export function studentRoutes(deps: {
  students: Students;
  importMaxBytes: number;
  importMaxRows: number;
}): (app: Express) => void {
  const { students } = deps;
  const actorId = (res: Response) => adminClaims(res).sub;
  return (app) => {
    app.get(STUDENTS_PREFIX, async (req, res) => {
      const q = parse(listQuery, req.query);
      const { students: found, total } = await students.list({
        search: q.search || undefined,
        status: q.status === 'all' ? undefined : q.status,
        page: q.page,
        limit: q.limit,
      });
      const totalPages = Math.max(1, Math.ceil(total / q.limit));
      res.json({
        students: found.map(toStudentJson),
        pagination: {
          currentPage: q.page,
          totalPages,
          totalResults: total,
          hasNext: q.page < totalPages,
          hasPrev: q.page > 1,
        },
      });
    });
    app.post(`${STUDENTS_PREFIX}/invite`, async (req, res) => {
      const input = parse(inviteBody, req.body);
      const student = await students.invite(input, actorId(res));
      res
        .status(201)
        .json({ message: `Invitation sent to ${student.name}`, student: toStudentJson(student) });
    });
    app.post(`${STUDENTS_PREFIX}/import`, csvFile(deps.importMaxBytes), async (req, res) => {
      const { dryRun } = parse(importQuery, req.query);
      const file = uploadedFile(req);
      if (!file) throw badRequest('Choose a CSV file to import', 'file_required');
      const rows = csvRows(file.buffer.toString('utf8'), deps.importMaxRows);
      res.json(await students.importRows(rows, { dryRun, actorId: actorId(res) }));
    });
    app.post(`${STUDENTS_PREFIX}/:id/resend-assessment`, async (req, res) => {
      const { id } = parse(idParams, req.params);
      const student = await students.resend(id, actorId(res));
      res.json({ message: `Invitation sent to ${student.name}`, student: toStudentJson(student) });
    });
    app.patch(`${STUDENTS_PREFIX}/:id`, async (req, res) => {
      const { id } = parse(idParams, req.params);
      const { extraTimePercent } = parse(patchBody, req.body);
      res.json({ student: toStudentJson(await students.setExtraTime(id, extraTimePercent, actorId(res))) });
    });
    app.delete(`${STUDENTS_PREFIX}/:id`, async (req, res) => {
      const { id } = parse(idParams, req.params);
      await students.remove(id, actorId(res));
      res.json({ message: 'Student deleted successfully' });
    });
    // The link's look-up changes nothing (mail scanners follow links): only the student's own Start will.
    app.get('/api/student/:token', async (req, res) => {
      const { token } = parse(tokenParams, req.params);
      const student = await students.byToken(token);
      res.setHeader('Cache-Control', 'no-store');
      res.json({ student: { name: student.name, email: student.email } });
    });
  };
}
