import { LANGUAGES, type Language } from '@readiness/contracts';
import { AppError, badRequest } from '@readiness/kit/errors';
import { fileSource, multipartBody, uploadedFiles, uploadedName } from '@readiness/kit/files';
import { parse } from '@readiness/kit/http';
import type { Request, RequestHandler, Response } from 'express';
import { fileTooLarge, type Admission, type NewFile } from '../../domain/attempts';
import { parseCsv } from '../../domain/csv';
import type { StudentInput, StudentView } from '../../domain/students';
import { FILE_UPLOADED } from '../../domain/versions';
import type { StudentApiDeps } from './api';
import { csvRow, submitBody, tokenParams } from './schemas';

/** The best of the languages for the browser's Accept-Language; null when it names none of them (or nothing). */
export const browserLanguage = (req: Request): Language | null =>
  req.headers['accept-language'] ? (req.acceptsLanguages(...LANGUAGES) as Language | false) || null : null;

export const toStudentJson = (s: StudentView) => ({
  _id: s.id,
  name: s.name,
  email: s.email,
  phoneNumber: s.phoneNumber ?? undefined,
  status: s.status,
  inviteToken: s.inviteToken,
  inviteUrl: s.inviteUrl,
  extraTimePercent: s.extraTimePercent,
  language: s.language,
  createdAt: s.createdAt.toISOString(),
  invitedAt: s.invitedAt.toISOString(),
  expiresAt: s.expiresAt.toISOString(),
  expired: s.expired,
});

const CSV_COLUMNS = ['name', 'email', 'phoneNumber', 'extraTimePercent', 'language'] as const;

/** The rows of an uploaded CSV, each validated with the invite rules, the header row naming the columns. */
export function csvRows(text: string, maxRows: number) {
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
export const csvFile = (maxBytes: number) =>
  multipartBody({
    field: 'file',
    limits: { fileSize: maxBytes, files: 1, fields: 5 },
    tooLarge: () => new AppError('file_too_large', `The file is larger than ${maxBytes} bytes`, 413),
    badUpload: 'Send one CSV file in the field "file"',
  });

/** Multipart text fields that carry JSON (the SPEC's submit sends `answers` as JSON text). */
function jsonField(value: unknown, name: string): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    throw badRequest(`${name} must be JSON`, 'validation_failed');
  }
}

/** The submit body, JSON or multipart, with its files matched to their questions. */
export async function submission(req: Request) {
  const multipart = Boolean(req.is('multipart/form-data'));
  const raw = (req.body ?? {}) as Record<string, unknown>;
  const body = parse(
    submitBody,
    multipart
      ? {
          ...raw,
          answers: raw.answers === undefined ? undefined : jsonField(raw.answers, 'answers'),
          fileQuestionIds:
            raw.fileQuestionIds === undefined ? undefined : jsonField(raw.fileQuestionIds, 'fileQuestionIds'),
        }
      : raw,
  );
  const parts = uploadedFiles(req);
  // Without `fileQuestionIds`, files follow the order of the answers recorded as 'file_uploaded' (SPEC §7).
  const questionIds =
    body.fileQuestionIds ?? body.answers.filter((a) => a.answer === FILE_UPLOADED).map((a) => a.questionId);
  if (parts.length > 0 && questionIds.length !== parts.length) {
    throw badRequest(
      'Each file needs its question: send fileQuestionIds in the order of the files',
      'bad_upload',
    );
  }
  const files: NewFile[] = await Promise.all(
    parts.map(async (p, i) => ({
      questionId: questionIds[i]!,
      originalName: uploadedName(p),
      source: await fileSource(p),
    })),
  );
  return { body, files };
}

export const JSON_TYPE = 'application/json';
export const MULTIPART_TYPE = 'multipart/form-data';

/** Whether the request says it carries a body (a length above 0, or chunks). */
const announcesBody = (req: Request) => {
  const length = req.headers['content-length'];
  return (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
};

const unsupported = (message: string) => new AppError('unsupported_media_type', message, 415);

/**
 * The student's writes take only the bodies their page sends. Anything else (`text/plain`, a form post, which a
 * cross-site page can send without a preflight) is refused with 415 before it is read, and changes nothing. A
 * write with no body at all (start, a file's removal) passes.
 */
export function bodyOf(...types: string[]): RequestHandler {
  return (req, _res, next) => {
    if (!announcesBody(req) && !req.headers['content-type']) return next();
    if (req.is(types)) return next();
    next(unsupported(`Send the body as ${types.join(' or ')}`));
  };
}

/**
 * The submit's body, which it cannot do without: a submit with none, whatever type it names, is refused with 415
 * before anything is read, so it is never taken for a submission of no answers; the attempt stays open.
 */
export function submissionOf(...types: string[]): RequestHandler {
  const typed = bodyOf(...types);
  return (req, res, next) => {
    if (announcesBody(req)) return typed(req, res, next);
    next(
      unsupported(
        `The submission has no body: send the answers as ${types.join(' or ')} (nothing was submitted)`,
      ),
    );
  };
}

/** One answer file, spooled to disk while it is checked and stored. */
export const oneFile = (deps: StudentApiDeps) =>
  multipartBody({
    field: 'file',
    limits: { fileSize: deps.uploadMaxBytes, files: 1, fields: 4, fieldSize: 200 },
    tooLarge: () => fileTooLarge(deps.uploadMaxBytes),
    badUpload: 'Send one file in the field "file" with attemptId and questionId',
    spoolDir: deps.spoolDir,
  });

/** A submit's parts: the answers and other fields, and up to 50 files, spooled. */
export const submitParts = (deps: StudentApiDeps) =>
  multipartBody({
    field: 'files',
    multiple: true,
    limits: { fileSize: deps.uploadMaxBytes, files: 50, fields: 8, fieldSize: 1024 * 1024 },
    tooLarge: () => fileTooLarge(deps.uploadMaxBytes),
    badUpload: 'Send answers, timeSpent and startedAt as fields and each file in a part named "files"',
    spoolDir: deps.spoolDir,
  });

/**
 * Before multer reads a byte of a multipart body: an unknown link gets its 404 with the body left unread. A JSON
 * body is already read (and bounded at 1 MB) by then, so it costs no look-up of its own.
 */
export const admitted =
  (deps: StudentApiDeps, needs: { openAttempt: boolean }): RequestHandler =>
  (req, res, next) => {
    if (!req.is(MULTIPART_TYPE)) return next();
    deps.attempts.admitWrite(parse(tokenParams, req.params).token, needs).then((admission) => {
      (res.locals as { admission?: Admission }).admission = admission;
      next();
    }, next);
  };

/** What the request's admission read (the upload's attempt), if it ran. */
export const admissionOf = (res: Response) => (res.locals as { admission?: Admission }).admission;
