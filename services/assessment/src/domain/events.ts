import {
  type QuestionFileChange,
  questionBasics,
  questionType,
  sectionOf,
  timestampFromDate,
  translationMessages,
  payloadOf,
  VersionPublication,
} from '@readiness/contracts';
import { mimetypeOf } from './files';
import type { AssessmentVersion } from './assessment';

export const VERSION_PUBLISHED = 'assessment.version.published.v1' as const;
export const QUESTION_FILE_CHANGED = 'assessment.question-file.changed.v1' as const;

/** A question file an admin uploaded or removed, for the audit log. */
export const questionFileChangedPayload = (
  file: { filename: string; originalName: string; size?: number },
  change: QuestionFileChange,
  actor: { id: string; name: string },
) =>
  payloadOf(QUESTION_FILE_CHANGED, {
    filename: file.filename,
    originalName: file.originalName,
    size: BigInt(file.size ?? 0),
    change,
    actorId: actor.id,
    actorName: actor.name,
  });

/**
 * The whole version, answer key included, as `assessment.version.published.v1` carries it, and why it is published:
 * saved by its author, or made active again by `reactivatedBy`.
 */
export function versionPublishedPayload(
  v: AssessmentVersion,
  reactivatedBy?: { id: string; name: string },
): Uint8Array {
  const publishedBy = reactivatedBy ?? v.createdBy;
  return payloadOf(VERSION_PUBLISHED, {
    versionId: v.id,
    version: v.version,
    active: v.isActive,
    title: v.title,
    description: v.description,
    timeLimitMinutes: v.timeLimit,
    passingScore: v.passingScore,
    sections: v.sections.map(sectionOf),
    questions: v.questions.map((q) => ({
      ...questionBasics(q),
      type: questionType(q.type),
      correctAnswer: q.correctAnswer ?? '',
      options: q.options ?? [],
      fileInstructions: q.fileInstructions ?? '',
      downloadableFile: q.downloadableFile && {
        filename: q.downloadableFile.filename,
        originalName: q.downloadableFile.originalName,
        size: BigInt(q.downloadableFile.size),
        mimetype: mimetypeOf(q.downloadableFile.filename),
      },
    })),
    changeNotes: v.changeNotes,
    createdAt: timestampFromDate(v.createdAt),
    createdById: v.createdBy.id,
    createdByName: v.createdBy.name,
    publishedById: publishedBy.id,
    publishedByName: publishedBy.name,
    shuffleQuestions: v.shuffleQuestions,
    shuffleOptions: v.shuffleOptions,
    practiceQuestion: v.practiceQuestion
      ? {
          id: 'practice',
          type: questionType(v.practiceQuestion.type),
          question: v.practiceQuestion.question,
          correctAnswer: v.practiceQuestion.correctAnswer,
          options: v.practiceQuestion.options,
        }
      : undefined,
    translations: translationMessages(v.translations, mimetypeOf),
    publication: reactivatedBy ? VersionPublication.REACTIVATED : VersionPublication.SAVED,
  });
}
