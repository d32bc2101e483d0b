import { sql } from 'drizzle-orm';
import { rows, type Runner } from '@readiness/kit/db';
import { FILES_JSON, toFile, type AttemptFile, type FileJson } from './attempt-records';

/* The answer files uploaded to attempts: recorded while an attempt is open, read, removed, downloaded. */

export async function attemptFiles(runner: Runner, attemptId: string): Promise<AttemptFile[]> {
  const [row] = await rows<{ files: FileJson[] }>(
    runner,
    sql`SELECT ${FILES_JSON} AS files FROM (SELECT ${attemptId}::uuid AS id) a`,
  );
  return (row?.files ?? []).map(toFile);
}

/**
 * Records a question's answer file while the attempt is open, replacing the one before, in one statement: the
 * attempt is checked and its files count moved on in it (a submit that closed it first leaves nothing written;
 * a submit that read the files before this leaves the attempt open and reads again), and the replaced
 * file's object key comes back from the row it replaced. `written: false` when the attempt closed meanwhile.
 */
export async function upsertFile(
  runner: Runner,
  f: {
    attemptId: string;
    questionId: string;
    objectKey: string;
    originalName: string;
    size: number;
    mimetype: string;
    graceSeconds: number;
  },
): Promise<{ written: boolean; file?: AttemptFile; replacedKey?: string }> {
  const [row] = await rows<{ file: FileJson; replaced_key: string | null }>(
    runner,
    sql`WITH a AS (
          UPDATE attempts SET files_seq = files_seq + 1
          WHERE id = ${f.attemptId} AND status = 'in_progress'
            AND clock_timestamp() <= deadline_at + make_interval(secs => ${f.graceSeconds})
          RETURNING id),
        f AS (
          INSERT INTO attempt_files (attempt_id, question_id, object_key, original_name, size, mimetype)
          SELECT a.id, ${f.questionId}, ${f.objectKey}, ${f.originalName}, ${f.size}, ${f.mimetype} FROM a
          ON CONFLICT (attempt_id, question_id) DO UPDATE SET id = gen_random_uuid(),
            object_key = EXCLUDED.object_key, original_name = EXCLUDED.original_name, size = EXCLUDED.size,
            mimetype = EXCLUDED.mimetype, uploaded_at = clock_timestamp(), replaced_key = attempt_files.object_key
          RETURNING *)
        SELECT json_build_object('id', f.id, 'questionId', f.question_id, 'objectKey', f.object_key,
          'originalName', f.original_name, 'size', f.size, 'mimetype', f.mimetype, 'uploadedAt', f.uploaded_at)
          AS file, f.replaced_key FROM f`,
  );
  if (!row) return { written: false };
  return { written: true, file: toFile(row.file), replacedKey: row.replaced_key ?? undefined };
}

/** Removes a question's file from the student's attempt in progress; returns its object key. */
export async function deleteFile(
  runner: Runner,
  studentId: string,
  questionId: string,
): Promise<string | undefined> {
  const [row] = await rows<{ object_key: string }>(
    runner,
    sql`WITH a AS (
          UPDATE attempts SET files_seq = files_seq + 1
          WHERE student_id = ${studentId} AND status = 'in_progress'
            AND EXISTS (SELECT 1 FROM attempt_files f WHERE f.attempt_id = attempts.id AND f.question_id = ${questionId})
          RETURNING id)
        DELETE FROM attempt_files f USING a WHERE f.attempt_id = a.id AND f.question_id = ${questionId}
        RETURNING f.object_key`,
  );
  return row?.object_key;
}

/** An answer file for the admin download: the student's attempt's file for that question. */
export async function adminFile(
  runner: Runner,
  q: { studentId: string; attemptId: string; questionId: string },
): Promise<AttemptFile | undefined> {
  const [row] = await rows<{ file: FileJson }>(
    runner,
    sql`SELECT json_build_object('id', f.id, 'questionId', f.question_id, 'objectKey', f.object_key,
          'originalName', f.original_name, 'size', f.size, 'mimetype', f.mimetype, 'uploadedAt', f.uploaded_at)
          AS file
        FROM attempt_files f JOIN attempts a ON a.id = f.attempt_id
        WHERE a.id = ${q.attemptId}::uuid AND a.student_id = ${q.studentId}::uuid AND f.question_id = ${q.questionId}`,
  );
  return row && toFile(row.file);
}
