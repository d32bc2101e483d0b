/** The shapes the student service keeps of the assessment and of answers (plain data, stored as JSON). */

import type { ContentTranslations, PracticeQuestion, VersionQuestion } from '@readiness/contracts';

/** A question as the assessment service published it, answer key included. Never sent to a student. */
export type { QuestionKind as QuestionType, VersionQuestion } from '@readiness/contracts';

/** The service's copy of one assessment version (from assessment.version.published.v1). */
export interface AssessmentVersion {
  versionId: string;
  version: number;
  title: string;
  description: string;
  timeLimit: number;
  passingScore: number;
  /** `draw`: how many of the section's questions each attempt is given (absent: all). */
  sections: Array<{ id: number; title: string; description: string; draw?: number }>;
  questions: VersionQuestion[];
  /** Each attempt gets its own order of the questions within each section (absent: off). */
  shuffleQuestions?: boolean;
  /** Each attempt gets its own order of multiple-choice options (absent: off). */
  shuffleOptions?: boolean;
  /** The untimed practice question offered before Start (absent: none). */
  practiceQuestion?: PracticeQuestion;
  /** The texts in other languages than English (absent: English only). */
  translations?: ContentTranslations;
}

export interface Answer {
  questionId: string;
  answer: string;
}
