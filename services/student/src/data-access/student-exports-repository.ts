import { sql } from 'drizzle-orm';
import { json, rows, type Runner } from '@readiness/kit/db';

/* Subject-access exports: the requests, the parts the other services answered with, and the student's own rows. */

/** One file of a service's part, as the event carried it. */
export interface PartFile {
  path: string;
  description: string;
  /** JSON text, or empty when the file is an object of the bucket. */
  json: string;
  objectKey: string;
}

export interface ExportPart {
  service: string;
  files: PartFile[];
  receivedAt: Date;
}

export interface ExportRecord {
  id: string;
  studentId: string;
  requestedBy: string;
  requestedAt: Date;
  parts: ExportPart[];
}

export async function insertExport(
  runner: Runner,
  e: { id: string; studentId: string; requestedBy: string },
): Promise<void> {
  await runner.execute(
    sql`INSERT INTO student_exports (id, student_id, requested_by) VALUES (${e.id}, ${e.studentId}, ${e.requestedBy})`,
  );
}

/** The student's newest export requested since `since`, with the parts received so far. */
export async function latestExport(
  runner: Runner,
  studentId: string,
  since: Date,
): Promise<ExportRecord | undefined> {
  const [row] = await rows<{
    id: string;
    student_id: string;
    requested_by: string;
    requested_at: Date | string;
    parts: Array<{ service: string; files: PartFile[]; received_at: string }>;
  }>(
    runner,
    sql`SELECT e.id, e.student_id, e.requested_by, e.requested_at,
               coalesce((SELECT jsonb_agg(jsonb_build_object('service', p.service, 'files', p.files,
                                          'received_at', p.received_at) ORDER BY p.service)
                         FROM student_export_parts p WHERE p.export_id = e.id), '[]'::jsonb) AS parts
        FROM student_exports e
        WHERE e.student_id = ${studentId} AND e.requested_at >= ${since.toISOString()}::timestamptz
        ORDER BY e.requested_at DESC LIMIT 1`,
  );
  return (
    row && {
      id: row.id,
      studentId: row.student_id,
      requestedBy: row.requested_by,
      requestedAt: new Date(row.requested_at),
      parts: row.parts.map((p) => ({
        service: p.service,
        files: p.files,
        receivedAt: new Date(p.received_at),
      })),
    }
  );
}

/** Keeps a service's part of an export once; nothing when the export is gone (expired, or its student erased). */
export async function insertPart(
  runner: Runner,
  p: { exportId: string; studentId: string; service: string; files: PartFile[] },
): Promise<boolean> {
  const kept = await rows(
    runner,
    sql`INSERT INTO student_export_parts (export_id, service, files)
        SELECT id, ${p.service}, ${json(p.files)} FROM student_exports
        WHERE id = ${p.exportId}::uuid AND student_id = ${p.studentId}::uuid
        ON CONFLICT (export_id, service) DO NOTHING RETURNING export_id`,
  );
  return kept.length > 0;
}

/** Removes exports requested before `before` (their parts go with them). */
export async function deleteExportsBefore(runner: Runner, before: Date): Promise<number> {
  const gone = await rows(
    runner,
    sql`DELETE FROM student_exports WHERE requested_at < ${before.toISOString()}::timestamptz RETURNING id`,
  );
  return gone.length;
}

/** The student's own rows of this service, as the export's `student/` folder shows them. */
export async function ownStudentData(runner: Runner, studentId: string) {
  const [student] = await rows(
    runner,
    sql`SELECT id, name, email, phone_number, language, status, extra_time_percent, invited_at, expires_at,
               reminder_count, last_reminded_at, created_at
        FROM students WHERE id = ${studentId}::uuid`,
  );
  const attempts = await rows<{ id: string; attempt_number: number }>(
    runner,
    sql`SELECT a.id, a.attempt_number, a.status, a.started_at, a.deadline_at, a.added_seconds, a.submitted_at,
               a.time_spent_minutes, a.finalised_by, a.graded_from_autosave, a.saved_at, a.answers,
               a.deadline_answers, a.paper, a.devices, a.page_seen_at,
               coalesce((SELECT jsonb_agg(jsonb_build_object('at', t.at, 'kind', t.kind, 'detail', t.detail)
                                          ORDER BY t.at)
                         FROM attempt_timeline t WHERE t.attempt_id = a.id), '[]'::jsonb) AS timeline
        FROM attempts a WHERE a.student_id = ${studentId}::uuid ORDER BY a.attempt_number`,
  );
  const files = await rows<{
    attempt_number: number;
    question_id: string;
    object_key: string;
    original_name: string;
    size: string | number;
    mimetype: string;
    uploaded_at: Date | string;
  }>(
    runner,
    sql`SELECT a.attempt_number, f.question_id, f.object_key, f.original_name, f.size, f.mimetype, f.uploaded_at
        FROM attempt_files f JOIN attempts a ON a.id = f.attempt_id
        WHERE a.student_id = ${studentId}::uuid ORDER BY a.attempt_number, f.question_id`,
  );
  const results = await rows(
    runner,
    sql`SELECT id, attempt_id, passed, completed_at, body FROM results
        WHERE student_id = ${studentId}::uuid ORDER BY completed_at`,
  );
  const lmsIdentities = await rows(
    runner,
    sql`SELECT issuer, subject AS lms_user_id, created_at FROM lti_identities WHERE student_id = ${studentId}::uuid`,
  );
  const actions = await rows(
    runner,
    sql`SELECT at, actor_id, action, details FROM student_audit WHERE student_id = ${studentId}::uuid ORDER BY at`,
  );
  return { student, attempts, files, results, lmsIdentities, actions };
}
