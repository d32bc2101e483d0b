import type { ApiAnswer, ApiQuery } from '../../../lib/api-types';

/*
 * The shapes the results service answers with, as its operations declare them (the generated `api-schema.ts`):
 * a field the service adds, renames or drops changes these types, and the pages that use it fail to compile.
 */

/** Results Management: `GET /api/admin/results`, one page with the stats over every result. */
export type ResultList = ApiAnswer<'/api/admin/results', 'get'>;
export type ResultRow = ResultList['results'][number];
export type Pagination = ResultList['pagination'];
/** Over every result, whatever the filter: the four stat cards. */
export type ResultStats = ResultList['stats'];

type ListQuery = Required<ApiQuery<'/api/admin/results', 'get'>>;
export type ResultStatus = ListQuery['status'];
export type SortBy = ListQuery['sortBy'];
export type SortOrder = ListQuery['sortOrder'];

/** One result with its sections, answers and the version taken: `GET /api/admin/results/{id}`. */
export type ResultAnswer = ApiAnswer<'/api/admin/results/{id}', 'get'>;
export type ResultDetail = ResultAnswer['result'];
export type SectionResult = ResultDetail['sections'][number];
export type AnswerResult = ResultDetail['answers'][number];
export type AnswerFile = NonNullable<AnswerResult['file']>;
export type TakenVersion = NonNullable<ResultDetail['assessmentVersion']>;
export type VersionQuestion = TakenVersion['sections'][number]['questions'][number];

/** `GET /api/admin/results/analysis`. */
export type ItemAnalysis = ApiAnswer<'/api/admin/results/analysis', 'get'>;

/** What happened during the attempt, oldest first: facts for the reviewer, never part of the score. */
export type TimelineEntry = ResultDetail['timeline'][number];
export type TimelineKind = TimelineEntry['kind'];
