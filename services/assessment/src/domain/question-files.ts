import { notFound } from '@readiness/kit/errors';
import { isMissingObject } from '@readiness/kit/storage';
import type { StoredFile } from '../data-access/versions-repository';
import { lockVersions } from '../data-access/versions-repository';
import type { Actor, AssessmentsDeps } from './assessments';
import { QuestionFileChange } from '@readiness/contracts';
import { enqueue } from '@readiness/kit/outbox';
import { QUESTION_FILE_CHANGED, questionFileChangedPayload } from './events';
import { acceptFile, isStoredName } from './files';

const FILE_NOT_FOUND_MESSAGE = 'File not found';

/** Checks and stores a question file under a server-generated name. */
export async function uploadQuestionFile(
  deps: AssessmentsDeps,
  originalName: string,
  data: Buffer,
  actor: Actor,
): Promise<StoredFile> {
  const { database, repo, storage } = deps;
  const { filename, mimetype } = acceptFile(originalName, data);
  await storage.put(`questions/${filename}`, data, { contentType: mimetype, size: data.length });
  const file = { filename, originalName, size: data.length, mimetype };
  await database.transaction(async (tx) => {
    await repo.addFile(tx, file, actor.id);
    await repo.audit(tx, {
      actorId: actor.id,
      actorName: actor.name,
      action: 'file.uploaded',
      details: { filename, originalName, size: data.length },
    });
    await enqueue(tx, {
      name: QUESTION_FILE_CHANGED,
      payload: questionFileChangedPayload(file, QuestionFileChange.UPLOADED, actor),
    });
  });
  return file;
}

/**
 * Removes an uploaded file no version uses; a file some version still uses stays stored and downloadable,
 * and only the admin's draft lets go of it.
 */
export async function removeQuestionFile(
  deps: AssessmentsDeps,
  filename: string,
  actor: Actor,
): Promise<{ removed: boolean }> {
  const { database, repo, storage } = deps;
  if (!isStoredName(filename)) throw notFound(FILE_NOT_FOUND_MESSAGE);
  const removed = await database.transaction(async (tx) => {
    await lockVersions(tx);
    const file = await repo.file(filename, tx);
    if (!file) throw notFound(FILE_NOT_FOUND_MESSAGE);
    const used = await repo.isReferenced(filename, tx);
    if (!used) await repo.removeFile(tx, filename);
    await repo.audit(tx, {
      actorId: actor.id,
      actorName: actor.name,
      action: used ? 'file.detached' : 'file.removed',
      details: { filename, originalName: file.originalName },
    });
    await enqueue(tx, {
      name: QUESTION_FILE_CHANGED,
      payload: questionFileChangedPayload(
        file,
        used ? QuestionFileChange.DETACHED : QuestionFileChange.REMOVED,
        actor,
      ),
    });
    return !used;
  });
  if (removed) await storage.remove(`questions/${filename}`);
  return { removed };
}

/** A question file for download: only one that some version refers to. */
export async function downloadQuestionFile(deps: AssessmentsDeps, filename: string) {
  const { repo, storage } = deps;
  if (!isStoredName(filename)) throw notFound(FILE_NOT_FOUND_MESSAGE);
  const file = await repo.file(filename);
  if (!file || !(await repo.isReferenced(filename))) throw notFound(FILE_NOT_FOUND_MESSAGE);
  try {
    return { file, body: await storage.get(`questions/${filename}`) };
  } catch (err) {
    if (isMissingObject(err)) throw notFound(FILE_NOT_FOUND_MESSAGE);
    throw err;
  }
}

/** Stores a file the service itself ships (the seed's), under its fixed name; idempotent. */
export async function storeOwnFile(deps: AssessmentsDeps, file: StoredFile, data: Buffer): Promise<void> {
  const { database, repo, storage } = deps;
  await storage.put(`questions/${file.filename}`, data, {
    contentType: file.mimetype,
    size: data.length,
  });
  await repo.addFile(database.db, file, '');
}
