import type { Language, QuestionKind, RecordedResult } from '@readiness/contracts';
import type { TraceFields } from '@readiness/kit/tracing';

export type { ResultAnswer as ScoredAnswer, ResultSection as SectionScore } from '@readiness/contracts';

/** The report service's copy of a result, from results.result.recorded.v1. */
export type ResultCopy = Omit<RecordedResult, 'canRetake'>;

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
  /**
   * The assessment's title as the certificate prints it: in the certificate's language when the version has it,
   * else English. Its mail and the verification page show the same.
   */
  assessmentTitle: string;
  /** Whole percent, rounded, as the result event carried it: only for the event's field of that name. */
  percentage: number;
  /** The result's points, from which the certificate, its mail and verification show the percentage. */
  score: number;
  totalPoints: number;
  /** Its result's language: the certificate is written in it and its mail goes in it. */
  language: Language;
  objectKey: string;
  status: 'pending' | 'issued';
  awardedAt: Date;
  issuedAt: Date | null;
  /** The trace of the result that earned it (W3C fields; empty when it was not traced). */
  trace: TraceFields;
}
