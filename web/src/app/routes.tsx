import type { RouteObject } from 'react-router-dom';
import { FullPageSpinner } from '../components/ui';
import { NotFoundPage } from '../features/misc/components/not-found-page';
import { RootRedirect } from '../features/misc/components/root-redirect';
import { RouteError } from '../features/misc/components/route-error';
import type { RouteHandle } from '../features/layout/components/admin-layout';
import type { AdminMessageId } from '../i18n/admin/en';
import { retryingChunk } from '../lib/code-chunks';

/** A route's title in the layout header and the tab, by its id in the admin catalogue. */
const titled = (titleId: AdminMessageId): RouteHandle => ({ titleId });

/*
 * The admin entry's routes. The student pages (/assessment/…) are another entry of the app
 * (student.html, app/student), so a student never downloads admin code. Every admin screen is loaded
 * on demand (route `lazy`, a dynamic import per screen): an admin downloads only the screens they
 * open. Titles live here (as ids of the admin catalogue) so the layout header can show them before the screen's
 * code has arrived.
 */
/** Every screen's chunk fetched again when the network dropped it, before the error screen (lib/code-chunks). */
function retryingScreens(routes: RouteObject[]): RouteObject[] {
  return routes.map((route) => {
    const lazy = typeof route.lazy === 'function' ? { lazy: retryingChunk(route.lazy) } : {};
    const children = route.children ? { children: retryingScreens(route.children) } : {};
    return { ...route, ...lazy, ...children } as RouteObject;
  });
}

export const routes: RouteObject[] = retryingScreens([
  {
    errorElement: <RouteError />,
    // Shown while the first screen's code chunk arrives.
    hydrateFallbackElement: <FullPageSpinner />,
    children: [
      { path: '/', element: <RootRedirect /> },
      {
        path: '/admin/login',
        lazy: () =>
          import('../features/auth/components/login-page').then((m) => ({ Component: m.LoginPage })),
      },
      {
        lazy: () =>
          import('../features/auth/components/require-auth').then((m) => ({ Component: m.RequireAuth })),
        children: [
          {
            path: '/admin/change-password',
            handle: titled('layout.title.changePassword'),
            lazy: () =>
              import('../features/auth/components/change-password-page').then((m) => ({
                Component: m.ChangePasswordPage,
              })),
          },
          {
            lazy: () =>
              import('../features/layout/components/admin-layout').then((m) => ({
                Component: m.AdminLayout,
              })),
            children: [
              {
                path: '/admin/dashboard',
                handle: titled('layout.title.dashboard'),
                lazy: () =>
                  import('../features/dashboard/components/dashboard-page').then((m) => ({
                    Component: m.DashboardPage,
                  })),
              },
              {
                path: '/admin/students',
                handle: titled('layout.title.students'),
                lazy: () =>
                  import('../features/students/components/students-page').then((m) => ({
                    Component: m.StudentsPage,
                  })),
              },
              {
                path: '/admin/live',
                handle: titled('layout.title.live'),
                lazy: () =>
                  import('../features/live/components/live-page').then((m) => ({ Component: m.LivePage })),
              },
              {
                path: '/admin/assessments',
                handle: titled('layout.title.assessments'),
                lazy: () =>
                  import('../features/assessments/components/assessments-page').then((m) => ({
                    Component: m.AssessmentsPage,
                  })),
              },
              {
                path: '/admin/results',
                handle: titled('layout.title.results'),
                lazy: () =>
                  import('../features/results/components/results-page').then((m) => ({
                    Component: m.ResultsPage,
                  })),
              },
              {
                // Before /admin/results/:resultId, so 'analysis' is never read as a result id.
                path: '/admin/results/analysis',
                handle: titled('layout.title.itemAnalysis'),
                lazy: () =>
                  import('../features/results/components/item-analysis-page').then((m) => ({
                    Component: m.ItemAnalysisPage,
                  })),
              },
              {
                path: '/admin/results/:resultId',
                handle: titled('layout.title.result'),
                lazy: () =>
                  import('../features/results/components/result-detail-page').then((m) => ({
                    Component: m.ResultDetailPage,
                  })),
              },
              {
                path: '/admin/security',
                handle: titled('layout.title.security'),
                lazy: () =>
                  import('../features/auth/components/security-page').then((m) => ({
                    Component: m.SecurityPage,
                  })),
              },
              {
                lazy: () =>
                  import('../features/auth/components/require-super-admin').then((m) => ({
                    Component: m.RequireSuperAdmin,
                  })),
                children: [
                  {
                    path: '/admin/admins',
                    handle: titled('layout.title.admins'),
                    lazy: () =>
                      import('../features/admins/components/admin-management-page').then((m) => ({
                        Component: m.AdminManagementPage,
                      })),
                  },
                  {
                    path: '/admin/audit',
                    handle: titled('layout.title.audit'),
                    lazy: () =>
                      import('../features/audit/components/audit-log-page').then((m) => ({
                        Component: m.AuditLogPage,
                      })),
                  },
                  {
                    path: '/admin/lms-connections',
                    handle: titled('layout.title.lti'),
                    lazy: () =>
                      import('../features/lti/components/lms-connections-page').then((m) => ({
                        Component: m.LmsConnectionsPage,
                      })),
                  },
                  {
                    path: '/admin/webhooks',
                    handle: titled('layout.title.webhooks'),
                    lazy: () =>
                      import('../features/webhooks/components/webhooks-page').then((m) => ({
                        Component: m.WebhooksPage,
                      })),
                  },
                  {
                    path: '/admin/data-retention',
                    handle: titled('layout.title.retention'),
                    lazy: () =>
                      import('../features/retention/components/retention-page').then((m) => ({
                        Component: m.RetentionPage,
                      })),
                  },
                ],
              },
            ],
          },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
