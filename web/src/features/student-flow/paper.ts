import type { Attempt, StudentAssessment } from './api/types';

/**
 * The assessment as this attempt shows it: only the questions it was given (the service sends no
 * other), in its own order, and each multiple-choice question's options in its own order. Without a paper, the
 * version as it is.
 */
export function attemptAssessment(assessment: StudentAssessment, paper: Attempt['paper']): StudentAssessment {
  if (!paper) return assessment;
  const place = new Map(paper.questionIds.map((id, i) => [id, i]));
  const questions = assessment.questions
    .filter((q) => place.has(q.id))
    .sort((a, b) => place.get(a.id)! - place.get(b.id)!)
    .map((q) => {
      const order = paper.options[q.id];
      if (!order) return q;
      const at = new Map(order.map((id, i) => [id, i]));
      const rank = (id: string) => at.get(id) ?? Number.MAX_SAFE_INTEGER;
      return { ...q, options: [...q.options].sort((a, b) => rank(a.id) - rank(b.id)) };
    });
  return { ...assessment, questions };
}

/**
 * How many questions each student answers, over every section: the page has no question before Start, the service counts them by section (a section's draw, else all of them).
 */
export const questionsPerStudent = (assessment: StudentAssessment): number =>
  assessment.sections.reduce((sum, s) => sum + s.questionCount, 0);
