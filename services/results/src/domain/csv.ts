import { shownPercentage } from '@readiness/contracts';
import { csvLine } from '@readiness/kit/csv';
import { performanceLevel } from './assessment';
import type { ResultRecord } from './result';

export const CSV_HEADER = csvLine([
  'Student Name',
  'Email',
  'Score',
  'Total Points',
  'Percentage',
  'Status',
  'Performance Level',
  'Assessment Code',
  'Attempt',
  'Version',
  'Completed At',
]);

/** One result; its percentage and level as every surface shows them (docs/scoring.md). */
export function csvResultLine(r: ResultRecord) {
  const percentage = shownPercentage(r.score, r.totalPoints);
  return csvLine([
    r.student.name,
    r.student.email,
    r.score,
    r.totalPoints,
    percentage,
    r.passed ? 'Passed' : 'Failed',
    performanceLevel(percentage),
    r.assessmentCode,
    r.attemptNumber,
    r.version,
    r.completedAt.toISOString(),
  ]);
}
