import type { QuestionKind } from '@readiness/contracts';

/** One section's figures within a result. */
export interface SectionScore {
  sectionId: number;
  title: string;
  score: number;
  totalPoints: number;
  correct: number;
  questions: number;
  percentage: number;
}

/** One question's outcome within a result. */
export interface ScoredAnswer {
  questionId: string;
  /** `yes`/`no`, an option id, `file_uploaded`, or empty when unanswered. */
  answer: string;
  isCorrect: boolean;
  points: number;
  maxPoints: number;
  sectionId: number;
  /** An optional question left unanswered: in neither score nor total. */
  skipped?: boolean;
}

/** The report service's copy of a result, from results.result.recorded.v1. */
export interface ResultCopy {
  resultId: string;
  attemptId: string;
  studentId: string;
  name: string;
  email: string;
  score: number;
  totalPoints: number;
  percentage: number;
  passed: boolean;
  attemptNumber: number;
  assessmentCode: string;
  completedAt: Date;
  versionId: string;
  version: number;
  passingScore: number;
  assessmentTitle: string;
  sections: SectionScore[];
  answers: ScoredAnswer[];
}

export type QuestionType = QuestionKind;

/** The report service's copy of an assessment version: what the report shows of its questions. */
export interface VersionCopy {
  versionId: string;
  version: number;
  title: string;
  sections: Array<{ id: number; title: string; description: string }>;
  questions: Array<{
    id: string;
    type: QuestionType;
    question: string;
    section: number;
    points: number;
    options: Array<{ id: string; text: string }>;
  }>;
}

/** A passed result's certificate: `pending` until its PDF is stored and announced, then `issued`. */
export interface CertificateRecord {
  resultId: string;
  studentId: string;
  code: string;
  name: string;
  email: string;
  assessmentTitle: string;
  percentage: number;
  objectKey: string;
  status: 'pending' | 'issued';
  awardedAt: Date;
  issuedAt: Date | null;
}
