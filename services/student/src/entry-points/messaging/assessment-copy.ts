import { QuestionType as ProtoQuestionType } from '@readiness/contracts';
import type { Database } from '@readiness/kit/db';
import { on } from '@readiness/kit/runtime';
import { saveVersion } from '../../data-access/versions-repository';
import type { AssessmentVersion, QuestionType } from '../../domain/versions';

export const ASSESSMENT_PUBLISHED_QUEUE = 'student.assessment-published';

const TYPES: Partial<Record<ProtoQuestionType, QuestionType>> = {
  [ProtoQuestionType.YES_NO]: 'yes_no',
  [ProtoQuestionType.MULTIPLE_CHOICE]: 'multiple_choice',
  [ProtoQuestionType.FILE_UPLOAD]: 'file_upload',
};

/**
 * Keeps every version whole (answer key included: never served, see `studentView`), the active one marked by the
 * time it was published as active. Republishing a version is an upsert, so a redelivery has no second effect.
 */
export const assessmentCopyConsumer = (database: Database) =>
  on('assessment.version.published.v1', {
    queue: ASSESSMENT_PUBLISHED_QUEUE,
    async handle(event, meta) {
      const version: AssessmentVersion = {
        versionId: event.versionId,
        version: event.version,
        title: event.title,
        description: event.description,
        timeLimit: event.timeLimitMinutes,
        passingScore: event.passingScore,
        sections: event.sections.map((s) => ({ id: s.id, title: s.title, description: s.description })),
        questions: event.questions.map((q) => ({
          id: q.id,
          type: TYPES[q.type] ?? 'yes_no',
          question: q.question,
          section: q.section,
          points: q.points,
          required: q.required,
          correctAnswer: q.correctAnswer,
          options: q.options.map((o) => ({ id: o.id, text: o.text })),
          fileInstructions: q.fileInstructions,
          ...(q.downloadableFile
            ? {
                downloadableFile: {
                  filename: q.downloadableFile.filename,
                  originalName: q.downloadableFile.originalName,
                  size: Number(q.downloadableFile.size),
                  mimetype: q.downloadableFile.mimetype,
                },
              }
            : {}),
        })),
      };
      await saveVersion(database.db, version, event.active ? meta.occurredAt : null);
    },
  });
