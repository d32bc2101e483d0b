import { AppError, badRequest } from '@readiness/kit/errors';
import { fileSource, multipartBody, uploadedFile, uploadedFiles, uploadedName } from '@readiness/kit/files';
import { parse } from '@readiness/kit/http';
import { attachmentDisposition } from '@readiness/kit/storage';
import type { Express, Request, RequestHandler } from 'express';
import {
  STARTED_MESSAGE,
  SUBMITTED_MESSAGE,
  fileTooLarge,
  type Attempts,
  type NewFile,
} from '../../domain/attempts';
import { FILE_UPLOADED } from '../../domain/versions';
import {
  MAX_ANSWERS,
  adminFileParams,
  autosaveBody,
  fileFields,
  idempotencyKey,
  questionParams,
  submitBody,
  tokenParams,
} from './schemas';

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
async function submission(req: Request) {
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

const JSON_TYPE = 'application/json';
const MULTIPART_TYPE = 'multipart/form-data';

/**
 * The student's writes take only the bodies their page sends. Anything else (`text/plain`, a form post, which a
 * cross-site page can send without a preflight) is refused with 415 before it is read, and changes nothing. A
 * write with no body at all (start, a file's removal) passes.
 */
function bodyOf(...types: string[]): RequestHandler {
  return (req, _res, next) => {
    const length = req.headers['content-length'];
    const hasBody =
      (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
    if (!hasBody && !req.headers['content-type']) return next();
    if (req.is(types)) return next();
    next(new AppError('unsupported_media_type', `Send the body as ${types.join(' or ')}`, 415));
  };
}

/** The student flow's routes, by invitation token (no login), and the admin download of answer files. */
export function attemptRoutes(deps: {
  attempts: Attempts;
  uploadMaxBytes: number;
  /** Where uploads are streamed to while they are checked and stored. */
  spoolDir: string;
}): (app: Express) => void {
  const { attempts, uploadMaxBytes, spoolDir } = deps;
  const tooLarge = () => fileTooLarge(uploadMaxBytes);
  const oneFile = multipartBody({
    field: 'file',
    limits: { fileSize: uploadMaxBytes, files: 1, fields: 4, fieldSize: 200 },
    tooLarge,
    badUpload: 'Send one file in the field "file" with attemptId and questionId',
    spoolDir,
  });
  const submitParts = multipartBody({
    field: 'files',
    multiple: true,
    limits: { fileSize: uploadMaxBytes, files: 50, fields: 8, fieldSize: 1024 * 1024 },
    tooLarge,
    badUpload: 'Send answers, timeSpent and startedAt as fields and each file in a part named "files"',
    spoolDir,
  });
  const token = (req: Request) => parse(tokenParams, req.params).token;
  /**
   * Before multer reads a byte of a multipart body: an unknown link gets its 404 with the body left unread. A JSON
   * body is already read (and bounded at 1 MB) by then, so it costs no look-up of its own.
   */
  const admitted =
    (needs: { openAttempt: boolean }): RequestHandler =>
    (req, _res, next) => {
      if (!req.is(MULTIPART_TYPE)) return next();
      attempts.admitWrite(token(req), needs).then(() => next(), next);
    };

  return (app) => {
    app.get('/api/student/:token/assessment', async (req, res) => {
      const page = await attempts.assessment(token(req));
      res.json({ ...page, serverNow: page.serverNow.toISOString() });
    });
    app.post('/api/student/:token/start', bodyOf(JSON_TYPE), async (req, res) => {
      const started = await attempts.start(token(req));
      res.status(started.created ? 201 : 200).json({
        message: STARTED_MESSAGE,
        attempt: started.attempt,
        serverNow: started.serverNow.toISOString(),
      });
    });
    app.put('/api/student/:token/answers', bodyOf(JSON_TYPE), async (req, res) => {
      const t = token(req);
      const body = parse(autosaveBody, req.body);
      const saved = await attempts.autosave(t, body);
      res.json({
        seq: saved.seq,
        savedAt: saved.savedAt.toISOString(),
        serverNow: saved.serverNow.toISOString(),
      });
    });
    app.post(
      '/api/student/:token/files',
      bodyOf(MULTIPART_TYPE),
      admitted({ openAttempt: true }),
      oneFile,
      async (req, res) => {
        const t = token(req);
        const fields = parse(fileFields, req.body ?? {});
        const part = uploadedFile(req);
        if (!part) throw badRequest('Choose a file to upload', 'file_required');
        const file = await attempts.uploadFile(t, {
          attemptId: fields.attemptId,
          file: {
            questionId: fields.questionId,
            originalName: uploadedName(part),
            source: await fileSource(part),
          },
        });
        res.status(201).json({ file });
      },
    );
    app.delete('/api/student/:token/files/:questionId', async (req, res) => {
      const { token: t, questionId } = parse(questionParams, req.params);
      await attempts.removeFile(t, questionId);
      res.json({ message: 'File removed' });
    });
    app.post(
      '/api/student/:token/submit',
      bodyOf(JSON_TYPE, MULTIPART_TYPE),
      admitted({ openAttempt: false }),
      submitParts,
      async (req, res) => {
        const t = token(req);
        const key = parse(idempotencyKey, req.get('idempotency-key'));
        const { body, files } = await submission(req);
        if (body.answers.length > MAX_ANSWERS) throw badRequest(`At most ${MAX_ANSWERS} answers`);
        // RFC 7240: a client that polls for the result itself (a load generator, an integration) is answered at commit.
        const respondAsync = /(^|[\s,;])respond-async(\s*(,|;|$))/i.test(req.get('prefer') ?? '');
        const outcome = await attempts.submit(t, {
          attemptId: body.attemptId,
          idempotencyKey: key,
          answers: body.answers,
          files,
          respondAsync,
        });
        if (outcome.kind === 'result') {
          res.json({
            message: SUBMITTED_MESSAGE,
            result: outcome.result,
            serverNow: outcome.serverNow.toISOString(),
          });
        } else {
          if (respondAsync) res.setHeader('Preference-Applied', 'respond-async');
          res.status(202).json({
            message: SUBMITTED_MESSAGE,
            attemptId: outcome.attemptId,
            status: 'scoring',
            serverNow: outcome.serverNow.toISOString(),
          });
        }
      },
    );
    app.get('/api/student/:token/results', async (req, res) => {
      res.json({ results: await attempts.results(token(req)) });
    });
    app.get('/api/admin/students/:studentId/attempts/:attemptId/files/:questionId', async (req, res) => {
      const { file, body } = await attempts.adminFile(parse(adminFileParams, req.params));
      res.setHeader('Content-Type', file.mimetype);
      res.setHeader('Content-Length', String(file.size));
      res.setHeader('Content-Disposition', attachmentDisposition(file.originalName));
      res.setHeader('X-Content-Type-Options', 'nosniff');
      body.on('error', (err) => res.destroy(err));
      body.pipe(res);
    });
  };
}
