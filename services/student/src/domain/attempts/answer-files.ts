import { randomUUID } from 'node:crypto';
import { AppError, badRequest, notFound } from '@readiness/kit/errors';
import { detectFile, type FileExtension, type FileSource } from '@readiness/kit/files';
import {
  adminFile as adminFileRecord,
  deleteFile,
  upsertFile,
} from '../../data-access/attempt-files-repository';
import { studentAttempt } from '../../data-access/attempts-repository';
import { isStudentId } from '../../data-access/students-repository';
import { tokenHash } from '../tokens';
import type { AssessmentVersion } from '../versions';
import { openAttempt, type AttemptsContext } from './context';
import { attemptClosed, attemptNotFound } from './messages';
import { attemptIdOrNull, usable } from './invitation-link';
import { attemptJson } from './attempt-json';
import { isOpen } from './attempt-time';

export const FILE_TYPE_MESSAGE =
  'Only PDF, Word (doc, docx), text and image (jpg, jpeg, png) files can be uploaded';

/** The answer files a student may upload (SPEC §5). */
export const ANSWER_FILE_TYPES: readonly FileExtension[] = [
  'pdf',
  'doc',
  'docx',
  'txt',
  'jpg',
  'jpeg',
  'png',
];

/** Where a student's answer files live in the bucket; erasing the student removes the whole prefix. */
export const answerPrefix = (studentId: string) => `answers/${studentId}/`;

export const fileTooLarge = (maxBytes: number) =>
  new AppError(
    'file_too_large',
    `The file is larger than ${Math.round((maxBytes / (1024 * 1024)) * 10) / 10} MB`,
    413,
  );

export interface NewFile {
  questionId: string;
  originalName: string;
  /** Where the upload's bytes are (a spool file for the student's uploads): streamed to the bucket, never held. */
  source: FileSource;
}

export type StoredFile = Awaited<ReturnType<typeof storeFiles>>[number];

/** Stores checked files under server-generated keys; a refused file stores nothing (all are checked first). */
export async function storeFiles(
  ctx: AttemptsContext,
  studentId: string,
  attemptId: string,
  files: NewFile[],
) {
  const checked = files.map((f) => {
    const kind = detectFile(f.originalName, f.source, ANSWER_FILE_TYPES);
    if (!kind) throw new AppError('file_type', FILE_TYPE_MESSAGE, 400);
    return {
      ...f,
      ...kind,
      size: f.source.size,
      objectKey: `${answerPrefix(studentId)}${attemptId}/${randomUUID()}.${kind.extension}`,
    };
  });
  const stored: typeof checked = [];
  try {
    for (const f of checked) {
      await ctx.storage.put(f.objectKey, () => f.source.open(), {
        contentType: f.mimetype,
        size: f.source.size,
        sha256: f.source.sha256,
      });
      stored.push(f);
    }
  } catch (err) {
    await removeObjects(
      ctx,
      stored.map((f) => f.objectKey),
    );
    throw err;
  }
  return checked;
}

/** Removes answer files from the bucket; a failure is logged and the object stays (never fails the request). */
export async function removeObjects(ctx: AttemptsContext, keys: Array<string | undefined>) {
  for (const key of keys) {
    if (!key) continue;
    await ctx.storage.remove(key).catch((err: unknown) => {
      ctx.logger.warn({ err, key }, 'removing an answer file failed; it stays in the bucket');
    });
  }
}

export function checkFileQuestion(v: AssessmentVersion, questionId: string) {
  const q = v.questions.find((x) => x.id === questionId);
  if (!q || q.type !== 'file_upload') {
    throw badRequest('This question does not take a file', 'not_a_file_question');
  }
}

/** What a write's admission read: the link's student and the attempt in progress, open. */
export type Admission = Awaited<ReturnType<typeof admitWrite>>;

/**
 * The cheap check a write meets before its body is read: the link is known and usable, and (for a file) an
 * attempt is open. A burst of large bodies on random links then costs one indexed look-up each, no memory. What
 * it read is returned, so the upload that follows does not read it again.
 */
export async function admitWrite(ctx: AttemptsContext, token: string, needs: { openAttempt: boolean }) {
  const found = await studentAttempt(ctx.database.db, tokenHash(token), null);
  const student = usable(found?.student);
  if (!needs.openAttempt) return undefined;
  const attempt = found!.attempt;
  if (!attempt) throw attemptNotFound();
  if (!isOpen(attempt, found!.now, ctx.graceSeconds)) throw attemptClosed();
  return { student, attempt };
}

/**
 * One file per question of the attempt in progress; a new one replaces the old (its object removed). The
 * request's admission, when it found the attempt named, stands for the read (the write checks the attempt again).
 */
export async function uploadAnswerFile(
  ctx: AttemptsContext,
  token: string,
  input: { attemptId: string; file: NewFile; admitted?: Admission },
) {
  const { student, attempt } =
    input.admitted?.attempt.id === input.attemptId
      ? input.admitted
      : await openAttempt(ctx, token, input.attemptId);
  checkFileQuestion(await ctx.versions.version(attempt.versionId), input.file.questionId);
  const [f] = await storeFiles(ctx, student.id, attempt.id, [input.file]);
  const written = await upsertFile(ctx.database.db, {
    ...f!,
    attemptId: attempt.id,
    graceSeconds: ctx.graceSeconds,
  }).catch(async (err: unknown) => {
    await removeObjects(ctx, [f!.objectKey]);
    throw err;
  });
  if (!written.written) {
    await removeObjects(ctx, [f!.objectKey]);
    throw attemptClosed();
  }
  await removeObjects(ctx, [written.replacedKey]);
  return attemptJson(attempt, [written.file!]).files[0]!;
}

export async function removeAnswerFile(ctx: AttemptsContext, token: string, questionId: string) {
  const found = await studentAttempt(ctx.database.db, tokenHash(token), null);
  const student = usable(found?.student);
  if (!found!.attempt) throw attemptNotFound();
  const key = await deleteFile(ctx.database.db, student.id, questionId);
  if (!key) throw notFound('No file for this question', 'file_not_found');
  await removeObjects(ctx, [key]);
}

/** An answer file for an admin: its name, type and size, and its bytes from the bucket. */
export async function adminAnswerFile(
  ctx: AttemptsContext,
  q: { studentId: string; attemptId: string; questionId: string },
) {
  const missing = () => notFound('File not found', 'file_not_found');
  if (!isStudentId(q.studentId) || !attemptIdOrNull(q.attemptId)) throw missing();
  const file = await adminFileRecord(ctx.database.db, q);
  if (!file) throw missing();
  return { file, body: await ctx.storage.get(file.objectKey) };
}
