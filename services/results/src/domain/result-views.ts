import { notFound } from '@readiness/kit/errors';
import {
  analyseVersion,
  eachResult,
  findResult,
  listResults,
  recentResults,
} from '../data-access/results-repository';
import { figures } from '../data-access/students-repository';
import {
  activeVersion,
  findVersion,
  versionByNumber,
  versionNumbers,
} from '../data-access/versions-repository';
import type { AssessmentVersion } from './assessment';
import type { ResultFilter, ResultRecord } from './result';
import { RESULT_NOT_FOUND_MESSAGE, VERSION_NOT_FOUND_MESSAGE, type ResultsDeps } from './results';
import { percentOf } from './scoring';

export async function listResultsPage(
  deps: ResultsDeps,
  filter: ResultFilter,
  page: { page: number; limit: number },
) {
  const db = deps.database.db;
  const [found, all] = await Promise.all([
    listResults(db, filter, { offset: (page.page - 1) * page.limit, limit: page.limit }),
    figures(db),
  ]);
  // Without a search the count is one of the kept figures.
  const total =
    found.total ??
    (filter.status === 'all'
      ? all.results
      : filter.status === 'passed'
        ? all.passed
        : all.results - all.passed);
  return {
    results: found.results,
    total,
    stats: {
      totalResults: all.results,
      passed: all.passed,
      failed: all.results - all.passed,
      averagePercentage: all.results > 0 ? Math.round(all.percentageSum / all.results) : 0,
      passRate: percentOf(all.passed, all.results),
    },
  };
}

/** The result with the version the student took (its copy is never deleted). */
export async function resultDetail(
  deps: ResultsDeps,
  id: string,
): Promise<{ result: ResultRecord; version: AssessmentVersion | undefined }> {
  const db = deps.database.db;
  const result = await findResult(db, id);
  if (!result) throw notFound(RESULT_NOT_FOUND_MESSAGE, 'result_not_found');
  return { result, version: await findVersion(db, result.versionId) };
}

export async function dashboard(deps: ResultsDeps) {
  const db = deps.database.db;
  const [all, recent] = await Promise.all([figures(db), recentResults(db, 5)]);
  return {
    stats: {
      totalStudents: all.students,
      completedAssessments: all.results,
      passedAssessments: all.passed,
      pendingInvites: all.pendingInvites,
      passRate: percentOf(all.passed, all.results),
      inProgress: all.inProgress,
    },
    recentResults: recent,
  };
}

/** The filtered list in batches, for the streamed export. */
export function exportBatches(deps: ResultsDeps, filter: ResultFilter) {
  return eachResult(deps.database.db, filter);
}

/** How many bands the spread of a version's percentages has: ten points each, the last one 90 to 100. */
export const DISTRIBUTION_BANDS = 10;

/** The database's count of results per band (`least(percentage / 10, 9)`), as the bands the item analysis shows. */
export const distributionBands = (counts: readonly number[]) =>
  counts.map((count, i) => ({ from: i * 10, to: i === DISTRIBUTION_BANDS - 1 ? 100 : i * 10 + 9, count }));

/** Item analysis of one version (the active one by default) over its results. */
export async function itemAnalysis(deps: ResultsDeps, versionNumber?: number) {
  const db = deps.database.db;
  const versions = await versionNumbers(db);
  const version =
    versionNumber === undefined ? await activeVersion(db) : await versionByNumber(db, versionNumber);
  if (!version) {
    if (versionNumber !== undefined) throw notFound(VERSION_NOT_FOUND_MESSAGE, 'version_not_found');
    return { version: undefined, versions, figures: undefined };
  }
  return { version, versions, figures: await analyseVersion(db, version.versionId) };
}
