/** The services of the local stack, in start order, with the ports they take on localhost. */
export type StackServiceName =
  'auth' | 'assessment' | 'student' | 'results' | 'report' | 'notification' | 'gateway';

export interface StackService {
  name: StackServiceName;
  port: number;
  database: boolean;
  env(urls: Record<string, string>): NodeJS.ProcessEnv;
}

export const stackServices: StackService[] = [
  { name: 'auth', port: 8101, database: true, env: () => ({}) },
  // Checks admin tokens on /api/assessment with auth's key set; question files in its own embedded S3 under DATA_DIR.
  { name: 'assessment', port: 8102, database: true, env: (urls) => ({ AUTH_URL: urls.auth }) },
  // Checks admin tokens on /api/admin/students with auth's key set; seals invitation links with the shared event key.
  { name: 'student', port: 8103, database: true, env: (urls) => ({ AUTH_URL: urls.auth }) },
  // Scores submissions; checks admin tokens on its own /api/admin routes with auth's key set.
  { name: 'results', port: 8104, database: true, env: (urls) => ({ AUTH_URL: urls.auth }) },
  // PDFs with the system Chromium (or the one @sparticuz/chromium ships); certificates in its own embedded S3.
  { name: 'report', port: 8105, database: true, env: (urls) => ({ AUTH_URL: urls.auth }) },
  // Checks admin tokens on its own /api/admin routes with auth's key set.
  { name: 'notification', port: 8106, database: true, env: (urls) => ({ AUTH_URL: urls.auth }) },
  {
    name: 'gateway',
    port: 8080,
    database: false,
    env: (urls) => ({
      AUTH_URL: urls.auth,
      ASSESSMENT_URL: urls.assessment,
      STUDENT_URL: urls.student,
      RESULTS_URL: urls.results,
      REPORT_URL: urls.report,
      NOTIFICATION_URL: urls.notification,
      WEB_DIST_DIR: 'web/dist',
    }),
  },
];
