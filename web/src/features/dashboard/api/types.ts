import type { ApiAnswer } from '../../../lib/api-types';

/** SPEC §3 Dashboard stats and the latest results: `GET /api/admin/dashboard`, as the service declares it. */
export type Dashboard = ApiAnswer<'/api/admin/dashboard', 'get'>;
export type DashboardStats = Dashboard['stats'];
export type RecentResult = Dashboard['recentResults'][number];
