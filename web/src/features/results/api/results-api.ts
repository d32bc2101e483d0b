import { api, LIST } from '../../../lib/api';
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
export function listParams(q: Omit<ResultListQuery, 'page' | 'limit'>): Record<string, string> {
  return {
    ...(q.search.trim() ? { search: q.search.trim() } : {}),
    ...(q.status !== 'all' ? { status: q.status } : {}),
    sortBy: q.sortBy,
    sortOrder: q.sortOrder,
  };
}

const byId = (id: string) => `admin/results/${encodeURIComponent(id)}`;

export const resultsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getResults: build.query<ResultList, ResultListQuery>({
      query: ({ page, limit, ...filters }) => ({
        url: 'admin/results',
        params: { page, limit, ...listParams(filters) },
      }),
      providesTags: (list) => [
        { type: 'Result' as const, id: LIST },
        ...(list?.results ?? []).map((r) => ({ type: 'Result' as const, id: r._id })),
      ],
    }),
    getResult: build.query<ResultDetail | null, string>({
      query: (id) => byId(id),
      // SPEC §4: an answer that holds no result shows 'Result Not Found'.
      transformResponse: (body: Partial<ResultAnswer>) => body.result ?? null,
      providesTags: (_r, _e, id) => [{ type: 'Result', id }],
    }),
    deleteResult: build.mutation<void, string>({
      query: (id) => ({ url: byId(id), method: 'DELETE' }),
      transformResponse: () => undefined,

      invalidatesTags: [{ type: 'Result', id: LIST }, 'Dashboard'],
    }),
    resendCertificate: build.mutation<void, string>({
      query: (id) => ({ url: `${byId(id)}/resend-certificate`, method: 'POST' }),
      // SPEC §7: the answer is not shown.
      transformResponse: () => undefined,
    }),
    getItemAnalysis: build.query<ItemAnalysis, number | undefined>({
      query: (version) => ({
        url: 'admin/results/analysis',
        params: version === undefined ? {} : { version },
      }),
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

export const reportPath = (id: string) => `${byId(id)}/pdf`;
export const certificatePath = (id: string) => `${byId(id)}/certificate`;
export const exportPath = 'admin/results/export.csv';

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
