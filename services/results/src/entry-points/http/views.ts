import { shownPercentage } from '@readiness/contracts';
import type { AssessmentVersion } from '../../domain/assessment';
import { performanceLevel, questionNumbers } from '../../domain/assessment';
import type { ResultRecord } from '../../domain/result';

/** A row of the list (api.md ResultRow); the percentage and its band as shown (docs/scoring.md). */
export const toResultRow = (r: ResultRecord) => ({
  _id: r.id,
  studentId: r.studentId,
  student: { name: r.student.name, email: r.student.email },
  score: r.score,
  totalPoints: r.totalPoints,
  percentage: shownPercentage(r.score, r.totalPoints),
  passed: r.passed,
  performanceLevel: performanceLevel(shownPercentage(r.score, r.totalPoints)),
  assessmentCode: r.assessmentCode,
  completedAt: r.completedAt.toISOString(),
  attemptNumber: r.attemptNumber,
  canRetake: r.canRetake,
  version: r.version,
});

const YES_NO: Record<string, string> = { yes: 'Yes', no: 'No' };

/** The answer as a person reads it: Yes/No, the option's text, the file's name; empty when unanswered. */
function answerText(
  answer: ResultRecord['answers'][number],
  question: AssessmentVersion['questions'][number] | undefined,
): string {
  if (answer.file) return answer.file.originalName;
  if (!answer.answer) return '';
  if (question?.type === 'yes_no') return YES_NO[answer.answer] ?? answer.answer;
  if (question?.type === 'multiple_choice') {
    return question.options.find((o) => o.id === answer.answer)?.text ?? answer.answer;
  }
  return answer.answer;
}

/** Where an admin downloads an uploaded answer file (served by the student service). */
const answerFileUrl = (r: ResultRecord, questionId: string) =>
  `/api/admin/students/${encodeURIComponent(r.studentId)}/attempts/${encodeURIComponent(r.attemptId)}/files/${encodeURIComponent(questionId)}`;

/** The detail: the row, per-section and per-question figures, and the version the student took. */
export function toResultDetail(r: ResultRecord, version: AssessmentVersion | undefined) {
  const questions = new Map(version?.questions.map((q) => [q.id, q]));
  const numbers = questionNumbers(version ?? { questions: [] });
  return {
    ...toResultRow(r),
    passingScore: r.passingScore,
    timeSpent: r.timeSpentMinutes,
    startedAt: r.startedAt?.toISOString() ?? null,
    timeline: r.timeline,
    sections: r.sections.map((s) => {
      const percentage = shownPercentage(s.score, s.totalPoints);
      return { ...s, percentage, performanceLevel: performanceLevel(percentage) };
    }),
    answers: r.answers.map((a) => {
      const q = questions.get(a.questionId);
      return {
        questionId: a.questionId,
        number: numbers.get(a.questionId) ?? null,
        paperPosition: a.paperPosition ?? null,
        question: q?.question ?? '',
        type: q?.type ?? 'yes_no',
        section: a.section,
        answer: a.answer,
        answerText: answerText(a, q),
        isCorrect: a.isCorrect,
        skipped: a.skipped === true,
        points: a.points,
        maxPoints: a.maxPoints,
        ...(a.file
          ? {
              file: {
                originalName: a.file.originalName,
                size: a.file.size,
                mimetype: a.file.mimetype,
                url: answerFileUrl(r, a.questionId),
              },
            }
          : {}),
      };
    }),
    assessmentVersion: version
      ? {
          versionId: version.versionId,
          version: version.version,
          title: version.title,
          passingScore: version.passingScore,
          sections: version.sections.map((s) => ({
            id: s.id,
            title: s.title,
            description: s.description,
            questions: version.questions
              .filter((q) => q.section === s.id)
              .map((q) => ({
                id: q.id,
                number: numbers.get(q.id)!,
                type: q.type,
                question: q.question,
                points: q.points,
                required: q.required,
                correctAnswer: q.correctAnswer,
                options: q.options,
              })),
          })),
        }
      : null,
  };
}
