import { api, LIST } from '../../../lib/api';
import { request } from '../../../lib/api-request';
import type { ApiQuery } from '../../../lib/api-types';
import { adminT } from '../../../i18n/admin/admin-i18n';
import type {
  ItemAnalysis,
  ResultAnswer,
  ResultDetail,
  ResultList,
  ResultStatus,
  SortBy,
  SortOrder,
} from './types';

export interface ResultListQuery {
  page: number;
  limit: number;
  search: string;
  status: ResultStatus;
  sortBy: SortBy;
  sortOrder: SortOrder;
}

export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 20;
export const STATUS_OPTIONS: { value: ResultStatus; label: string }[] = [
  { value: 'all', label: adminT('results.status.all') },
  { value: 'passed', label: adminT('results.status.passed') },
  { value: 'failed', label: adminT('results.status.failed') },
];

export const SORT_OPTIONS: { sortBy: SortBy; sortOrder: SortOrder; label: string }[] = [
  { sortBy: 'completedAt', sortOrder: 'desc', label: adminT('results.sort.newest') },
  { sortBy: 'completedAt', sortOrder: 'asc', label: adminT('results.sort.oldest') },
  { sortBy: 'studentName', sortOrder: 'asc', label: adminT('results.sort.nameAsc') },
  { sortBy: 'studentName', sortOrder: 'desc', label: adminT('results.sort.nameDesc') },
  { sortBy: 'score', sortOrder: 'desc', label: adminT('results.sort.scoreDesc') },
  { sortBy: 'score', sortOrder: 'asc', label: adminT('results.sort.scoreAsc') },
  { sortBy: 'assessmentCode', sortOrder: 'asc', label: adminT('results.sort.codeAsc') },
  { sortBy: 'assessmentCode', sortOrder: 'desc', label: adminT('results.sort.codeDesc') },
];

/** The query string of a list or its CSV export: only what differs from the server's defaults. */
export function listParams(
  q: Omit<ResultListQuery, 'page' | 'limit'>,
): ApiQuery<'/api/admin/results/export.csv', 'get'> {
  return {
    ...(q.search.trim() ? { search: q.search.trim() } : {}),
    ...(q.status !== 'all' ? { status: q.status } : {}),
    sortBy: q.sortBy,
    sortOrder: q.sortOrder,
  };
}

/** The page size as the query declares it (the screen offers PAGE_SIZES alone). */
type PageSizeParam = NonNullable<ApiQuery<'/api/admin/results', 'get'>['limit']>;
const pageSizeParam = (limit: number) => String(limit) as PageSizeParam;

export const resultsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getResults: build.query<ResultList, ResultListQuery>({
      query: ({ page, limit, ...filters }) =>
        request('/api/admin/results', 'get', {
          query: { page, limit: pageSizeParam(limit), ...listParams(filters) },
        }),
      providesTags: (list) => [
        { type: 'Result' as const, id: LIST },
        ...(list?.results ?? []).map((r) => ({ type: 'Result' as const, id: r._id })),
      ],
    }),
    getResult: build.query<ResultDetail | null, string>({
      query: (id) => request('/api/admin/results/{id}', 'get', { path: { id } }),
      // SPEC §4: an answer that holds no result shows 'Result Not Found'.
      transformResponse: (body: Partial<ResultAnswer>) => body.result ?? null,
      providesTags: (_r, _e, id) => [{ type: 'Result', id }],
    }),
    deleteResult: build.mutation<void, string>({
      query: (id) => request('/api/admin/results/{id}', 'delete', { path: { id } }),
      transformResponse: () => undefined,

      invalidatesTags: [{ type: 'Result', id: LIST }, 'Dashboard'],
    }),
    resendCertificate: build.mutation<void, string>({
      query: (id) => request('/api/admin/results/{id}/resend-certificate', 'post', { path: { id } }),
      // SPEC §7: the answer is not shown.
      transformResponse: () => undefined,
    }),
    getItemAnalysis: build.query<ItemAnalysis, number | undefined>({
      query: (version) =>
        request('/api/admin/results/analysis', 'get', { query: version === undefined ? {} : { version } }),
      providesTags: [{ type: 'Result', id: LIST }],
    }),
  }),
});

export const {
  useGetResultsQuery,
  useGetResultQuery,
  useDeleteResultMutation,
  useResendCertificateMutation,
  useGetItemAnalysisQuery,
} = resultsApi;

/** A result's PDF report, its certificate, and the list's CSV as it is filtered. */
export const reportRequest = (id: string) => request('/api/admin/results/{id}/pdf', 'get', { path: { id } });
export const certificateRequest = (id: string) =>
  request('/api/admin/results/{id}/certificate', 'get', { path: { id } });
export const exportRequest = (filters: Omit<ResultListQuery, 'page' | 'limit'>) =>
  request('/api/admin/results/export.csv', 'get', { query: listParams(filters) });

/** SPEC §7: `assessment-report-{name}.pdf`, the name's spaces turned into hyphens. */
export const reportFileName = (name: string) => `assessment-report-${name.trim().replace(/\s+/g, '-')}.pdf`;
/** SPEC §7: `certificate-{name}-{email}.pdf`. */
export const certificateFileName = (name: string, email: string) => `certificate-${name}-${email}.pdf`;

/** The number in a question id (q2, q10, q1700000000000), for sorting them as numbers. */
function idNumber(id: string): number {
  const digits = /\d+/.exec(id)?.[0];
  return digits === undefined ? Number.POSITIVE_INFINITY : Number(digits);
}

export function byQuestionId<T extends { questionId: string }>(a: T, b: T): number {
  return idNumber(a.questionId) - idNumber(b.questionId) || a.questionId.localeCompare(b.questionId);
}
