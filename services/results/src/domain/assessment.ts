import type { Language } from '@readiness/contracts';
import type { AssessmentVersion } from '../data-access/records';

export type {
  AssessmentVersion,
  QuestionType,
  VersionQuestion,
  VersionSection,
} from '../data-access/records';

/** The performance bands of SPEC §4, by rounded percentage. */
export { performanceLevel, type PerformanceLevel } from '@readiness/contracts';

/**
 * Each question's number, from 1, in the version's order (as the editor and the item analysis number them): the one
 * number a question has wherever it is shown, whichever questions an attempt was given.
 */
export const questionNumbers = (version: Pick<AssessmentVersion, 'questions'>) =>
  new Map(version.questions.map((q, i) => [q.id, i + 1]));

/** The version's title in `language` when it has a translation of it (not blank), else its English title. */
export function titleIn(version: Pick<AssessmentVersion, 'title' | 'titles'>, language: Language): string {
  const translated = language === 'en' ? undefined : version.titles?.[language];
  return translated?.trim() ? translated : version.title;
}
