import { topology } from '@readiness/contracts';
import { matchRoute, requiresAdmin, studentToken } from './routes';

const owner = (method: string, path: string) => matchRoute(method, path)?.upstream;

describe('route table', () => {
  it.each([
    ['POST', '/api/auth/login', 'auth'],
    ['GET', '/api/auth/me', 'auth'],
    ['GET', '/api/admin/admins', 'auth'],
    ['PATCH', '/api/admin/admins/42/status', 'auth'],
    ['GET', '/api/admin/audit-log', 'auth'],
    ['GET', '/api/admin/dashboard', 'results'],
    ['GET', '/api/admin/results', 'results'],
    ['DELETE', '/api/admin/results/abc', 'results'],
    ['POST', '/api/admin/results/abc/resend-certificate', 'results'],
    ['GET', '/api/admin/results/abc/pdf', 'report'],
    ['GET', '/api/admin/results/abc/certificate', 'report'],
    ['POST', '/api/admin/students/invite', 'student'],
    ['GET', '/api/student/tok3n', 'student'],
    ['POST', '/api/student/tok3n/submit', 'student'],
    ['GET', '/api/assessment', 'assessment'],
    ['POST', '/api/assessment/upload-file', 'assessment'],
    ['GET', '/api/assessment/files/q1.pdf', 'assessment'],
    ['GET', '/.well-known/jwks.json', 'auth'],
    ['GET', '/api/certificates/RDY-7K3F-92QX', 'report'],
    ['GET', '/api/certificates/RDY-7K3F-92QX/pdf', 'report'],
  ])('when %s %s arrives, then it goes to %s', (method, path, upstream) => {
    expect(owner(method, path)).toBe(upstream);
  });

  it('when a row of the topology table owns an admin path, then everything under it goes to that service, behind the admin check', () => {
    const owned = topology.flatMap(({ name, adminPaths = [] }) =>
      adminPaths.flatMap((prefix) => [prefix, `${prefix}/a1b2`].map((path) => ({ name, path }))),
    );
    expect(owned.length).toBeGreaterThan(4);
    const wrong = owned.filter(({ name, path }) => {
      const rule = matchRoute('POST', path);
      return rule?.upstream !== name || !requiresAdmin(path, rule);
    });
    expect(wrong).toEqual([]);
    expect(owner('GET', '/api/admin/live/attempts')).toBe('student');
    expect(owner('GET', '/api/admin/notifications/deliveries')).toBe('notification');
    expect(owner('GET', '/api/admin/audit-logs')).toBeUndefined();
  });

  it('when a path belongs to no service, then no rule matches', () => {
    expect(matchRoute('GET', '/api/unknown')).toBeUndefined();
    expect(matchRoute('GET', '/api/authx')).toBeUndefined();
    expect(matchRoute('GET', '/api/admin/dashboards')).toBeUndefined();
  });

  it('when a route is administrative, then it needs an admin token; sign-in and student links do not', () => {
    const needs = (method: string, path: string) => requiresAdmin(path, matchRoute(method, path));
    expect(needs('GET', '/api/admin/results/abc/pdf')).toBe(true);
    expect(needs('GET', '/api/auth/me')).toBe(true);
    expect(needs('POST', '/api/auth/change-password')).toBe(true);
    expect(needs('POST', '/api/auth/reauthenticate')).toBe(true);
    expect(needs('POST', '/api/auth/reauthenticate/passkey-options')).toBe(true);
    expect(matchRoute('POST', '/api/auth/reauthenticate')?.rateLimit).toBe('login');
    expect(needs('PUT', '/api/assessment')).toBe(true);
    expect(needs('GET', '/api/admin/not-a-route')).toBe(true);
    expect(needs('POST', '/api/auth/login')).toBe(false);
    expect(needs('GET', '/api/student/tok3n/assessment')).toBe(false);
    expect(needs('GET', '/api/assessment/files/q1.pdf')).toBe(false);
    expect(needs('GET', '/api/certificates/RDY-7K3F-92QX')).toBe(false);
  });

  it('when student links are looked up, then look-ups and the writes of the flow have limits of their own', () => {
    expect(matchRoute('GET', '/api/student/tok3n')?.rateLimit).toBe('student');
    expect(matchRoute('GET', '/api/student/tok3n/assessment')?.rateLimit).toBe('student');
    expect(matchRoute('POST', '/api/student/tok3n/submit')?.rateLimit).toBe('studentWrite');
    expect(matchRoute('PUT', '/api/student/tok3n/answers')?.rateLimit).toBe('studentWrite');
    expect(matchRoute('POST', '/api/student/tok3n/activity')?.rateLimit).toBe('studentWrite');
    expect(studentToken('/api/student/tok3n/answers')).toBe('tok3n');
    expect(matchRoute('POST', '/api/auth/login')?.rateLimit).toBe('login');
  });

  it('when a sign-in step uses a second factor or a passkey, then it meets the sign-in limit too', () => {
    for (const path of [
      '/api/auth/login/mfa',
      '/api/auth/login/mfa/passkey-options',
      '/api/auth/login/passkey/options',
      '/api/auth/login/passkey',
    ]) {
      expect([path, matchRoute('POST', path)?.rateLimit]).toEqual([path, 'login']);
    }
    expect(matchRoute('POST', '/api/auth/login/passkeys')?.rateLimit).toBeUndefined();
  });

  it('when certificate codes are checked, then the student limit applies and nothing but GET reaches the report service', () => {
    expect(matchRoute('GET', '/api/certificates/RDY-7K3F-92QX')?.rateLimit).toBe('student');
    expect(matchRoute('GET', '/api/certificates/RDY-7K3F-92QX/pdf')?.rateLimit).toBe('student');
    expect(matchRoute('POST', '/api/certificates/RDY-7K3F-92QX')).toBeUndefined();
    expect(matchRoute('GET', '/api/certificates/a/b/c')).toBeUndefined();
  });
});
