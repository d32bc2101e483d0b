// The plain objects the repositories return: the domain's vocabulary, without behaviour.

import type { Language, PublishedVersion, TimelineFact, TranslationLanguage } from '@readiness/contracts';

export type { QuestionKind as QuestionType, VersionQuestion, VersionSection } from '@readiness/contracts';

/**
 * The service's copy of an assessment version (assessment.version.published.v1), answer key included; of its
 * translations only the title's, which a result names the assessment by in its language.
 */
export type AssessmentVersion = Omit<PublishedVersion, 'active' | 'translations'> & {
  /** The title in other languages, by language (a language absent: English). */
  titles?: Partial<Record<TranslationLanguage, string>>;
};

/** What a student uploaded as a file_upload answer (kept by the student service). */
export interface AnswerFile {
  key: string;
  originalName: string;
  size: number;
  mimetype: string;
}

export interface SubmittedAnswer {
  questionId: string;
  answer: string;
  file?: AnswerFile;
}

export interface ScoredAnswer {
  questionId: string;
  /** The student's answer, empty when unanswered. */
  answer: string;
  isCorrect: boolean;
  points: number;
  maxPoints: number;
  section: number;
  file?: AnswerFile;
  /** An optional question the student left unanswered: in neither score nor total. */
  skipped?: true;
  /**
   * Where the question stood on the attempt's own paper, from 1, in the order shown; absent when the attempt had no
   * paper of its own (the version's questions in the version's order) and on results scored before it was kept.
   */
  paperPosition?: number;
}

export interface SectionScore {
  id: number;
  title: string;
  description: string;
  score: number;
  totalPoints: number;
  correct: number;
  /** Questions that count: those answered, and the required ones left unanswered (skipped optional ones do not). */
  questions: number;
  percentage: number;
}

export interface Score {
  score: number;
  totalPoints: number;
  /** Whole percent, rounded: stored for sorting and carried by the events; never shown (docs/scoring.md). */
  percentage: number;
  /** The exact rule: score × 100 ≥ passingScore × totalPoints. */
  passed: boolean;
  sections: SectionScore[];
  answers: ScoredAnswer[];
}

/** A recorded result, as the repository returns it. */
export interface ResultRecord {
  id: string;
  attemptId: string;
  studentId: string;
  student: { name: string; email: string };
  versionId: string;
  version: number;
  /** The version's own (English) title: the admin's screens show it. */
  assessmentTitle: string;
  /** The title in the result's `language` when the version has it, else the English one: the certificate's. */
  localizedTitle: string;
  passingScore: number;
  score: number;
  totalPoints: number;
  percentage: number;
  passed: boolean;
  canRetake: boolean;
  attemptNumber: number;
  assessmentCode: string;
  startedAt: Date | null;
  completedAt: Date;
  timeSpentMinutes: number;
  /** What happened during the attempt, oldest first (empty for results recorded before timelines). */
  timeline: TimelineFact[];
  /** The attempt's language: the certificate and its mail go in it. */
  language: Language;
  sections: SectionScore[];
  answers: ScoredAnswer[];
}

export const RESULT_SORTS = ['completedAt', 'studentName', 'score', 'assessmentCode'] as const;
export type ResultSort = (typeof RESULT_SORTS)[number];

export interface ResultFilter {
  search?: string;
  status: 'all' | 'passed' | 'failed';
  sortBy: ResultSort;
  sortOrder: 'asc' | 'desc';
}
