import type { AttemptFile, AttemptRecord } from '../../data-access/attempt-records';
import type { Answer } from '../versions';

/** An attempt as the student's page holds it. */
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
