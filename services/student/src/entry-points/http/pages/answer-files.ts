import { multipartBody } from '@readiness/kit/files';
import { parse } from '@readiness/kit/http';
import type { RequestHandler, Response } from 'express';
import { z } from 'zod';
import { fileTooLarge, type Admission } from '../../../domain/attempts';
import type { StudentApiDeps } from '../operation';
import { tokenParams } from './invitation-link';
import { MULTIPART_TYPE } from './media-types';
import { questionIdField } from './student-answers';

/** The text fields of an answer file's upload, beside its file. */
export const fileFields = z.object({
  attemptId: z.string({ error: 'attemptId is required' }).max(100),
  questionId: questionIdField,
});

export const questionParams = z.object({ token: z.string(), questionId: z.string() });

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
