import type { Score, ScoredAnswer, SubmittedAnswer } from '../data-access/records';
import type { AssessmentVersion, VersionQuestion } from './assessment';

export type { AnswerFile, Score, ScoredAnswer, SectionScore, SubmittedAnswer } from '../data-access/records';

export const FILE_UPLOADED = 'file_uploaded';

/** Rounded whole percent of `part` over `whole`; 0 when there is nothing to score. */
export const percentOf = (part: number, whole: number) => (whole > 0 ? Math.round((part * 100) / whole) : 0);

function isCorrect(q: VersionQuestion, a: SubmittedAnswer | undefined): boolean {
  if (!a) return false;
  if (q.type === 'file_upload') return a.file !== undefined || a.answer === FILE_UPLOADED;
  return a.answer !== '' && a.answer === q.correctAnswer;
}

/**
 * Scores a submission against the version the student took (docs/scoring.md): yes_no and multiple_choice are
 * correct when the answer equals the key; file_upload when a file was uploaded; an unanswered question earns
 * 0; totalPoints is the sum of every question's points. Answers to questions the version does not have are
 * ignored; when a question is answered twice the last answer counts.
 */
export function scoreSubmission(version: AssessmentVersion, submitted: SubmittedAnswer[]): Score {
  const byQuestion = new Map(submitted.map((a) => [a.questionId, a]));
  const answers: ScoredAnswer[] = version.questions.map((q) => {
    const a = byQuestion.get(q.id);
    const correct = isCorrect(q, a);
    return {
      questionId: q.id,
      answer: a?.answer ?? '',
      isCorrect: correct,
      points: correct ? q.points : 0,
      maxPoints: q.points,
      section: q.section,
      ...(a?.file ? { file: a.file } : {}),
    };
  });
  const score = answers.reduce((sum, a) => sum + a.points, 0);
  const totalPoints = answers.reduce((sum, a) => sum + a.maxPoints, 0);
  const sections = version.sections
    .map((s) => {
      const own = answers.filter((a) => a.section === s.id);
      const sectionScore = own.reduce((sum, a) => sum + a.points, 0);
      const sectionTotal = own.reduce((sum, a) => sum + a.maxPoints, 0);
      return {
        id: s.id,
        title: s.title,
        description: s.description,
        score: sectionScore,
        totalPoints: sectionTotal,
        correct: own.filter((a) => a.isCorrect).length,
        questions: own.length,
        percentage: percentOf(sectionScore, sectionTotal),
      };
    })
    .filter((s) => s.questions > 0);
  return {
    score,
    totalPoints,
    percentage: percentOf(score, totalPoints),
    passed: score * 100 >= version.passingScore * totalPoints,
    sections,
    answers,
  };
}
