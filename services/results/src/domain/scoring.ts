import type { Score, ScoredAnswer, SubmittedAnswer } from '../data-access/records';
import type { AssessmentVersion, VersionQuestion } from './assessment';

export type { AnswerFile, Score, ScoredAnswer, SectionScore, SubmittedAnswer } from '../data-access/records';

export const FILE_UPLOADED = 'file_uploaded';

/** Rounded whole percent of `part` over `whole`; 0 when there is nothing to score. */
export const percentOf = (part: number, whole: number) => (whole > 0 ? Math.round((part * 100) / whole) : 0);

function isAnswered(q: VersionQuestion, a: SubmittedAnswer | undefined): boolean {
  if (!a) return false;
  if (q.type === 'file_upload') return a.file !== undefined || a.answer === FILE_UPLOADED;
  return a.answer !== '';
}

function isCorrect(q: VersionQuestion, a: SubmittedAnswer | undefined): boolean {
  if (!a) return false;
  if (q.type === 'file_upload') return a.file !== undefined || a.answer === FILE_UPLOADED;
  return a.answer !== '' && a.answer === q.correctAnswer;
}

/**
 * Scores a submission against the version the student took (docs/scoring.md): yes_no and multiple_choice are
 * correct when the answer equals the key; file_upload when a file was uploaded; an unanswered required question
 * earns 0 of its points; an optional question left unanswered is skipped: it counts in neither score nor total.
 * Answers to questions the version does not have are ignored; when a question is answered twice the last counts.
 * When the attempt was given some of the questions only (`given`, a section's draw), only those count: the total
 * is that attempt's own, and answers to the others are ignored; `given` is in the order the paper showed them, and
 * each answer keeps its place there (`paperPosition`) beside the version's order it is listed in.
 */
export function scoreSubmission(
  version: AssessmentVersion,
  submitted: SubmittedAnswer[],
  given: readonly string[] = [],
): Score {
  const byQuestion = new Map(submitted.map((a) => [a.questionId, a]));
  const asked = given.length > 0 ? new Set(given) : undefined;
  const drawn = asked ? version.questions.filter((q) => asked.has(q.id)) : [];
  // A list naming none of the version's questions is no draw: the whole version counts, never an empty total.
  const questions = drawn.length > 0 ? drawn : version.questions;
  // The order the attempt's paper showed its questions in, kept beside the version's own numbers.
  const ids = new Set(drawn.map((q) => q.id));
  const shown =
    ids.size > 0 ? new Map(given.filter((id) => ids.has(id)).map((id, i) => [id, i + 1])) : undefined;
  const answers: ScoredAnswer[] = questions.map((q) => {
    const a = byQuestion.get(q.id);
    const paperPosition = shown?.get(q.id);
    const correct = isCorrect(q, a);
    return {
      questionId: q.id,
      answer: a?.answer ?? '',
      isCorrect: correct,
      points: correct ? q.points : 0,
      maxPoints: q.points,
      section: q.section,
      ...(a?.file ? { file: a.file } : {}),
      ...(!q.required && !isAnswered(q, a) ? { skipped: true as const } : {}),
      ...(paperPosition ? { paperPosition } : {}),
    };
  });
  const counted = answers.filter((a) => !a.skipped);
  const score = counted.reduce((sum, a) => sum + a.points, 0);
  const totalPoints = counted.reduce((sum, a) => sum + a.maxPoints, 0);
  const sections = version.sections
    .map((s) => {
      const all = answers.filter((a) => a.section === s.id);
      const own = all.filter((a) => !a.skipped);
      const sectionScore = own.reduce((sum, a) => sum + a.points, 0);
      const sectionTotal = own.reduce((sum, a) => sum + a.maxPoints, 0);
      return {
        section: {
          id: s.id,
          title: s.title,
          description: s.description,
          score: sectionScore,
          totalPoints: sectionTotal,
          correct: own.filter((a) => a.isCorrect).length,
          questions: own.length,
          percentage: percentOf(sectionScore, sectionTotal),
        },
        present: all.length > 0,
      };
    })
    .filter((s) => s.present)
    .map((s) => s.section);
  // Nothing left to score because every question was skipped: nothing was shown, so no pass.
  const allSkipped = totalPoints === 0 && answers.some((a) => a.skipped);
  return {
    score,
    totalPoints,
    percentage: percentOf(score, totalPoints),
    passed: !allSkipped && score * 100 >= version.passingScore * totalPoints,
    sections,
    answers,
  };
}
