import { api } from '../../../lib/api';
import { request } from '../../../lib/api-request';
import type { Dashboard } from './types';

export const dashboardApi = api.injectEndpoints({
  endpoints: (build) => ({
    getDashboard: build.query<Dashboard, void>({
      query: () => request('/api/admin/dashboard', 'get'),
      providesTags: ['Dashboard'],
    }),
  }),
});

export const { useGetDashboardQuery } = dashboardApi;
