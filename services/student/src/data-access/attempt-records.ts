import { sql } from 'drizzle-orm';
import type { Language } from '@readiness/contracts';
import type { Answer } from './version-records';
import type { StudentStatus } from './students-repository';

/*
 * What the attempts tables keep, as the repositories read it: an attempt, its answer files and the student behind
 * a link, with the SQL that builds each from its row and the function that turns that JSON back into the record.
 */

export type AttemptStatus = 'in_progress' | 'submitted' | 'scored';
/** Who ended an attempt: its student, the deadline job, or an administrator from the Live screen. */
export type FinalisedBy = 'student' | 'deadline' | 'admin';

export interface AttemptFile {
  id: string;
  questionId: string;
  objectKey: string;
  originalName: string;
  size: number;
  mimetype: string;
  uploadedAt: Date;
}

/**
 * The questions an attempt was given and the order it shows them: a section's draw of N of its M
 * questions, the questions shuffled within each section, the options of multiple-choice questions shuffled. Drawn
 * once when the attempt starts from a seed kept with it; null when the version draws and shuffles nothing, which is
 * every question in the version's order.
 */
export interface Paper {
  seed: number;
  /** Every question given, section by section in the version's order of sections, in the order shown. */
  questionIds: string[];
  /** Multiple-choice option ids in the order shown, when options are shuffled. */
  options: Record<string, string[]>;
}

export interface AttemptRecord {
  id: string;
  studentId: string;
  attemptNumber: number;
  versionId: string;
  status: AttemptStatus;
  startedAt: Date;
  deadlineAt: Date;
  seq: number;
  answers: Answer[];
  deadlineAnswers: Answer[];
  savedAt: Date | null;
  submittedAt: Date | null;
  idempotencyKey: string | null;
  /** Changes to the attempt's answer files so far (uploads and removals). */
  filesSeq: number;
  /** The questions it was given and their order (null: the whole version in order). */
  paper: Paper | null;
  /** The language it is taken in: set at Start, changed by the student's switch; null: not known (English). */
  language: Language | null;
}

/** The student's copy of a result, shaped as the student sees it (api.md StudentResult). */

/** A student found by their link, with what the flow needs to decide. */
export interface TokenStudent {
  id: string;
  name: string;
  email: string;
  status: StudentStatus;
  extraTimePercent: number;
  /** Chosen at invitation or by the student's last switch; null: not chosen. */
  language: Language | null;
  expiresAt: Date;
}

export const date = (v: Date | string) => new Date(v);
export const maybeDate = (v: Date | string | null) => (v === null ? null : new Date(v));

export const ATTEMPT_JSON = sql`json_build_object(
  'id', a.id, 'studentId', a.student_id, 'attemptNumber', a.attempt_number, 'versionId', a.version_id,
  'status', a.status, 'startedAt', a.started_at, 'deadlineAt', a.deadline_at, 'seq', a.seq,
  'answers', a.answers, 'deadlineAnswers', a.deadline_answers, 'savedAt', a.saved_at,
  'submittedAt', a.submitted_at, 'idempotencyKey', a.idempotency_key, 'filesSeq', a.files_seq, 'paper', a.paper,
  'language', a.language)`;

export type AttemptJson = Omit<
  AttemptRecord,
  'startedAt' | 'deadlineAt' | 'savedAt' | 'submittedAt' | 'seq'
> & {
  startedAt: string;
  deadlineAt: string;
  savedAt: string | null;
  submittedAt: string | null;
  seq: number | string;
};

export const toAttempt = (a: AttemptJson): AttemptRecord => ({
  ...a,
  seq: Number(a.seq),
  startedAt: date(a.startedAt),
  deadlineAt: date(a.deadlineAt),
  savedAt: maybeDate(a.savedAt),
  submittedAt: maybeDate(a.submittedAt),
});

export const FILES_JSON = sql`coalesce((SELECT json_agg(json_build_object('id', f.id, 'questionId', f.question_id,
  'objectKey', f.object_key, 'originalName', f.original_name, 'size', f.size, 'mimetype', f.mimetype,
  'uploadedAt', f.uploaded_at) ORDER BY f.question_id) FROM attempt_files f WHERE f.attempt_id = a.id), '[]'::json)`;

export type FileJson = Omit<AttemptFile, 'uploadedAt' | 'size'> & {
  uploadedAt: string;
  size: number | string;
};
export const toFile = (f: FileJson): AttemptFile => ({
  ...f,
  size: Number(f.size),
  uploadedAt: date(f.uploadedAt),
});

/** An attempt with its files, as `ATTEMPT_JSON || {files: FILES_JSON}` selects it. */
export type AttemptWithFilesJson = AttemptJson & { files: FileJson[] };
export type AttemptWithFiles = AttemptRecord & { files: AttemptFile[] };
export const toAttemptWithFiles = (a: AttemptWithFilesJson): AttemptWithFiles => ({
  ...toAttempt(a),
  files: a.files.map(toFile),
});

export const STUDENT_COLUMNS = sql`s.id, s.name, s.email, s.status, s.extra_time_percent, s.language, s.expires_at`;
export interface StudentRow {
  id: string;
  name: string;
  email: string;
  status: StudentStatus;
  extra_time_percent: number;
  language: Language | null;
  expires_at: Date | string;
}
export const toTokenStudent = (r: StudentRow): TokenStudent => ({
  id: r.id,
  name: r.name,
  email: r.email,
  status: r.status,
  extraTimePercent: r.extra_time_percent,
  language: r.language,
  expiresAt: date(r.expires_at),
});

/** A new attempt's record as the database keeps it once inserted (its defaults included). */
export const newAttemptRecord = (a: {
  id: string;
  studentId: string;
  attemptNumber: number;
  versionId: string;
  startedAt: Date;
  deadlineAt: Date;
  paper: Paper | null;
  language: Language | null;
}): AttemptRecord => ({
  ...a,
  status: 'in_progress',
  seq: 0,
  answers: [],
  deadlineAnswers: [],
  savedAt: null,
  submittedAt: null,
  idempotencyKey: null,
  filesSeq: 0,
});
