import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { AssessmentVersionPublished } from './gen/readiness/events/v1/assessment_pb';
import { QuestionType } from './gen/readiness/events/v1/assessment_pb';

/**
 * The shapes several services keep of what another publishes, translated from the events in one place: each
 * service takes from them what it stores, and no service writes its own copy of the translation.
 */

/** A question's type as the services and the API name it. */
export type QuestionKind = 'yes_no' | 'multiple_choice' | 'file_upload';

const KINDS: Record<QuestionType, QuestionKind> = {
  // A type a newer publisher added is read as the simplest one rather than refused.
  [QuestionType.UNSPECIFIED]: 'yes_no',
  [QuestionType.YES_NO]: 'yes_no',
  [QuestionType.MULTIPLE_CHOICE]: 'multiple_choice',
  [QuestionType.FILE_UPLOAD]: 'file_upload',
};

const TYPES: Record<QuestionKind, QuestionType> = {
  yes_no: QuestionType.YES_NO,
  multiple_choice: QuestionType.MULTIPLE_CHOICE,
  file_upload: QuestionType.FILE_UPLOAD,
};

export const questionKind = (type: QuestionType): QuestionKind => KINDS[type] ?? 'yes_no';
export const questionType = (kind: QuestionKind): QuestionType => TYPES[kind];

export interface VersionSection {
  id: number;
  title: string;
  description: string;
}

export interface VersionQuestion {
  id: string;
  type: QuestionKind;
  question: string;
  section: number;
  points: number;
  required: boolean;
  correctAnswer: string;
  options: Array<{ id: string; text: string }>;
  fileInstructions: string;
  downloadableFile?: { filename: string; originalName: string; size: number; mimetype: string };
}

/** An assessment version as `assessment.version.published.v1` carries it, in plain values. */
export interface PublishedVersion {
  versionId: string;
  version: number;
  active: boolean;
  title: string;
  description: string;
  timeLimitMinutes: number;
  passingScore: number;
  sections: VersionSection[];
  questions: VersionQuestion[];
  createdAt: Date | null;
}

export function publishedVersion(e: AssessmentVersionPublished): PublishedVersion {
  return {
    versionId: e.versionId,
    version: e.version,
    active: e.active,
    title: e.title,
    description: e.description,
    timeLimitMinutes: e.timeLimitMinutes,
    passingScore: e.passingScore,
    sections: e.sections.map((s) => ({ id: s.id, title: s.title, description: s.description })),
    questions: e.questions.map((q) => ({
      id: q.id,
      type: questionKind(q.type),
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
    createdAt: e.createdAt ? timestampDate(e.createdAt) : null,
  };
}

/** The performance bands of SPEC §4, by percentage: 90 and above, 80 to 89, 70 to 79, below 70. */
export type PerformanceLevel = 'Excellent' | 'Good' | 'Satisfactory' | 'Needs Improvement';

export function performanceLevel(percentage: number): PerformanceLevel {
  if (percentage >= 90) return 'Excellent';
  if (percentage >= 80) return 'Good';
  if (percentage >= 70) return 'Satisfactory';
  return 'Needs Improvement';
}
