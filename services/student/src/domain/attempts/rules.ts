import { AppError, conflict, notFound } from '@readiness/kit/errors';
import type { FileExtension } from '@readiness/kit/files';
import type { AttemptFile, AttemptRecord } from '../../data-access/attempts-repository';
import { INVALID_INVITATION_MESSAGE } from '../students';
import type { Answer } from '../versions';

export const STARTED_MESSAGE = 'Assessment started. Good luck!';
export const SUBMITTED_MESSAGE = 'Assessment submitted successfully!';
export const ALREADY_COMPLETED_MESSAGE = 'Assessment already completed!';
export const NO_ASSESSMENT_MESSAGE = 'No assessment found';
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

export const invalidLink = () => notFound(INVALID_INVITATION_MESSAGE, 'not_found');
export const attemptNotFound = () => notFound('Attempt not found', 'attempt_not_found');
export const attemptClosed = () =>
  conflict('This attempt is closed: it was submitted or its time is over', 'attempt_closed');

/** The time an attempt gets: the version's limit plus the student's extra time, in whole seconds. */
export const attemptSeconds = (timeLimitMinutes: number, extraTimePercent: number) =>
  Math.round(timeLimitMinutes * 60 * (1 + extraTimePercent / 100));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** An attempt id as the database can look it up, or null for anything else (which then matches no attempt). */
export const attemptIdOrNull = (id: string | undefined) => (id !== undefined && UUID.test(id) ? id : null);

/** An invitation that expired before it was ever started: its link opens nothing. */
export const expiredUnstarted = (s: { status: string; expiresAt: Date }, now = Date.now()) =>
  s.status === 'invited' && s.expiresAt.getTime() <= now;

/** A student answers 404 alike when the link is unknown, deleted or expired before it was ever started. */
export function usable<S extends { status: string; expiresAt: Date }>(
  student: S | undefined,
  now = Date.now(),
): S {
  if (!student || expiredUnstarted(student, now)) throw invalidLink();
  return student;
}

/** The moment after which a submit no longer counts whole: the deadline plus the grace. */
export const closedAt = (a: AttemptRecord, graceSeconds: number) =>
  a.deadlineAt.getTime() + graceSeconds * 1000;
export const isOpen = (a: AttemptRecord, now: Date, graceSeconds: number) =>
  a.status === 'in_progress' && now.getTime() <= closedAt(a, graceSeconds);

/** Whole seconds left before the deadline, never below 0. */
export const secondsLeft = (deadlineAt: Date, now: Date) =>
  Math.max(0, Math.floor((deadlineAt.getTime() - now.getTime()) / 1000));

/** Whole minutes spent on an attempt ended at `now`: the time after its deadline is not counted. */
export function minutesSpent(a: { startedAt: Date; deadlineAt: Date }, now: Date): number {
  const end = Math.min(now.getTime(), a.deadlineAt.getTime());
  return Math.max(0, Math.floor((end - a.startedAt.getTime()) / 60_000));
}

export interface AttemptJson {
  id: string;
  attemptNumber: number;
  startedAt: string;
  deadlineAt: string;
  seq: number;
  answers: Answer[];
  files: Array<{ questionId: string; id: string; originalName: string; size: number; mimetype: string }>;
  /** The questions this attempt was given in the order it shows them, and its options' order; null: all, in order. */
  paper: { questionIds: string[]; options: Record<string, string[]> } | null;
}

export const attemptJson = (a: AttemptRecord, files: AttemptFile[]): AttemptJson => ({
  id: a.id,
  attemptNumber: a.attemptNumber,
  startedAt: a.startedAt.toISOString(),
  deadlineAt: a.deadlineAt.toISOString(),
  seq: a.seq,
  answers: a.answers,
  files: files.map((f) => ({
    questionId: f.questionId,
    id: f.id,
    originalName: f.originalName,
    size: f.size,
    mimetype: f.mimetype,
  })),
  paper: a.paper && { questionIds: a.paper.questionIds, options: a.paper.options },
});
