import { api, field } from '../../../lib/api';

/** SPEC §3 Dashboard stats; `inProgress` is the results service's extra figure. */
export interface DashboardStats {
  totalStudents: number;
  completedAssessments: number;
  passedAssessments: number;
  pendingInvites: number;
  passRate: number;
  inProgress?: number;
}

export interface RecentResult {
  _id: string;
  student: { name: string; email: string };
  percentage: number;
  passed: boolean;
  completedAt: string;
}

export interface Dashboard {
  stats: DashboardStats;
  recentResults: RecentResult[];
}

const noStats: DashboardStats = {
  totalStudents: 0,
  completedAssessments: 0,
  passedAssessments: 0,
  pendingInvites: 0,
  passRate: 0,
};

export const dashboardApi = api.injectEndpoints({
  endpoints: (build) => ({
    getDashboard: build.query<Dashboard, void>({
      query: () => 'admin/dashboard',
      transformResponse: (body: unknown) => ({
        stats: { ...noStats, ...field<Partial<DashboardStats> | undefined>('stats')(body) },
        recentResults: field<RecentResult[] | undefined>('recentResults')(body) ?? [],
      }),
      providesTags: ['Dashboard'],
    }),
  }),
});

export const { useGetDashboardQuery } = dashboardApi;
