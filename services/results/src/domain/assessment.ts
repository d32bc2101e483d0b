export type {
  AssessmentVersion,
  QuestionType,
  VersionQuestion,
  VersionSection,
} from '../data-access/records';

/** The performance bands of SPEC §4, by rounded percentage. */
export { performanceLevel, type PerformanceLevel } from '@readiness/contracts';
