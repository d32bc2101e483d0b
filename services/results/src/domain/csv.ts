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

export const csvResultLine = (r: ResultRecord) =>
  csvLine([
    r.student.name,
    r.student.email,
    r.score,
    r.totalPoints,
    r.percentage,
    r.passed ? 'Passed' : 'Failed',
    performanceLevel(r.percentage),
    r.assessmentCode,
    r.attemptNumber,
    r.version,
    r.completedAt.toISOString(),
  ]);
