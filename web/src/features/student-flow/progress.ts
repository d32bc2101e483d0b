import type { StudentAssessment, StudentQuestion } from './api/types';

/** The student's answers by question id; a file question counts as answered once its file is uploaded. */
export type AnswerMap = Record<string, string>;

export const isAnswered = (question: StudentQuestion, answers: AnswerMap, files: Set<string>) =>
  question.type === 'file_upload' ? files.has(question.id) : Boolean(answers[question.id]);

/** SPEC §5: answered plus uploaded over all questions, rounded to a whole number. */
export function progressPercent(
  assessment: StudentAssessment,
  answers: AnswerMap,
  files: Set<string>,
): number {
  const total = assessment.questions.length;
  if (total === 0) return 0;
  const done = assessment.questions.filter((q) => isAnswered(q, answers, files)).length;
  return Math.round((done / total) * 100);
}

export const questionsOf = (assessment: StudentAssessment, sectionId: number) =>
  assessment.questions.filter((q) => q.section === sectionId);

/** SPEC §5: every question of the section answered or optional. Only that section is checked. */
export function sectionComplete(
  assessment: StudentAssessment,
  sectionId: number,
  answers: AnswerMap,
  files: Set<string>,
): boolean {
  return questionsOf(assessment, sectionId).every((q) => !q.required || isAnswered(q, answers, files));
}

/**
 * Where a resumed attempt opens: the first section still missing a required answer, so every section
 * before it is complete and reaching it needs no gate to be skipped; the last one when all are done.
 */
export function resumeSectionIndex(
  assessment: StudentAssessment,
  answers: AnswerMap,
  files: Set<string>,
): number {
  const index = assessment.sections.findIndex((s) => !sectionComplete(assessment, s.id, answers, files));
  return index === -1 ? Math.max(0, assessment.sections.length - 1) : index;
}

/** A section can be opened when every section before it is complete (backward is always free). */
export function reachable(
  assessment: StudentAssessment,
  target: number,
  answers: AnswerMap,
  files: Set<string>,
): boolean {
  return assessment.sections.slice(0, target).every((s) => sectionComplete(assessment, s.id, answers, files));
}
