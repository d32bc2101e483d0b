import { screen, waitFor } from '@testing-library/react';
import { refusal } from '../../../testing/answer';
import { http } from '../../../testing/openapi-http';
import { renderStudentApp } from '../../../testing/render-student';
import { db as adminDb, server } from '../../../testing/server';
import { TOKEN, useStudentServer } from './student-server';

useStudentServer();

describe('Student pages, their own front door', () => {
  it('when a student opens their link on a device an admin uses, then no admin session is checked or sent', async () => {
    window.localStorage.setItem('admin_token', 'an-admin-token');
    const authorization: (string | null)[] = [];
    server.events.on('request:start', ({ request }) => {
      authorization.push(request.headers.get('authorization'));
    });
    renderStudentApp(`/assessment/${TOKEN}`);
    await screen.findByRole('button', { name: 'Start Assessment' });
    expect(adminDb.requests.some((r) => r.path.startsWith('/api/auth/'))).toBe(false);
    expect(authorization.length).toBeGreaterThan(0);
    expect(authorization.every((value) => value === null)).toBe(true);
    server.events.removeAllListeners();
  });

  it('when a student call is answered 401, then nobody is signed out', async () => {
    window.localStorage.setItem('admin_token', 'an-admin-token');
    server.use(
      http.get('/api/student/{token}/assessment', () =>
        refusal(401, { message: 'Authentication required', code: 'UNAUTHORIZED' }),
      ),
    );
    renderStudentApp(`/assessment/${TOKEN}`);
    expect(
      await screen.findByText('Failed to load assessment', { selector: '.Toastify *' }),
    ).toBeInTheDocument();
    await waitFor(() => expect(window.localStorage.getItem('admin_token')).toBe('an-admin-token'));
  });
});
