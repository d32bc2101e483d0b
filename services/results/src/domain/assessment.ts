export type {
  AssessmentVersion,
  QuestionType,
  VersionQuestion,
  VersionSection,
} from '../data-access/records';

/** The performance bands of SPEC §4, by rounded percentage. */
export type PerformanceLevel = 'Excellent' | 'Good' | 'Satisfactory' | 'Needs Improvement';

export function performanceLevel(percentage: number): PerformanceLevel {
  if (percentage >= 90) return 'Excellent';
  if (percentage >= 80) return 'Good';
  if (percentage >= 70) return 'Satisfactory';
  return 'Needs Improvement';
}
