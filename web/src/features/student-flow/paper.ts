import type { Attempt, StudentAssessment } from './api/types';

/**
 * The assessment as this attempt shows it (issue 26): only the questions it was given, in its own order, and
 * each multiple-choice question's options in its own order. Without a paper, the version as it is.
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

/** How many of a section's questions each student answers: its draw, else all of them. */
export function givenIn(
  assessment: StudentAssessment,
  section: StudentAssessment['sections'][number],
): number {
  const all = assessment.questions.filter((q) => q.section === section.id).length;
  return section.draw && section.draw < all ? section.draw : all;
}

/** How many questions each student answers, over every section. */
export const questionsPerStudent = (assessment: StudentAssessment): number =>
  assessment.sections.reduce((sum, s) => sum + givenIn(assessment, s), 0);
