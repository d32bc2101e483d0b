import { screen, waitFor, within } from '@testing-library/react';
import { http } from '../../../testing/openapi-http';
import { superAdmin } from '../../../testing/fixtures';
import { answer, refusal } from '../../../testing/answer';
import { renderApp } from '../../../testing/render';
import { captureSavedFiles } from '../../../testing/saved-files';
import { openSession, server } from '../../../testing/server';
import type { StudentExport } from '../api/types';
import { useStudentServer } from './student-server';

useStudentServer();
const saved: string[] = [];
captureSavedFiles(saved);

const SERVICES = ['auth', 'integrations', 'notification', 'report', 'results'];

/** The student service's export endpoints for Marie Curie (st-1): none asked for until the POST, then gathering. */
function exportServer() {
  const asked = { requests: 0, statusCalls: 0, downloads: [] as string[] };
  let current: StudentExport | undefined;
  server.use(
    http.get('/api/admin/students/{id}/export/status', () => {
      asked.statusCalls += 1;
      if (!current)
        return refusal(404, {
          message: 'No data export was requested for this student',
          code: 'export_not_found',
        });
      // The services answer one by one, a poll at a time.
      if (!current.ready) {
        const received = SERVICES.slice(0, current.received.length + 2);
        current = {
          ...current,
          received,
          waitingFor: SERVICES.filter((s) => !received.includes(s)),
          ready: received.length === SERVICES.length,
        };
      }
      return answer('/api/admin/students/{id}/export/status', 'get', { export: current });
    }),
    http.post('/api/admin/students/{id}/export', () => {
      asked.requests += 1;
      current = {
        id: 'ex-1',
        requestedAt: '2026-12-02T10:00:00.000Z',
        expiresAt: '2026-12-03T10:00:00.000Z',
        ready: false,
        received: [],
        waitingFor: SERVICES,
      };
      return answer('/api/admin/students/{id}/export', 'post', { export: current }, { status: 202 });
    }),
    http.get('/api/admin/students/{id}/export', ({ request, response }) => {
      asked.downloads.push(request.headers.get('authorization') ?? '');
      return response.untyped(
        new Response(new Uint8Array([0x50, 0x4b, 0x05, 0x06]), {
          headers: { 'content-type': 'application/zip' },
        }),
      );
    }),
  );
  return asked;
}

describe('Export data', () => {
  it('when an admin gathers a student’s data, then the dialog follows the services answering and saves the ZIP with the admin token', async () => {
    const asked = exportServer();
    const { user } = renderApp('/admin/students', { token: openSession(superAdmin._id) });
    await screen.findByRole('table', { name: 'Students' });
    await user.click(screen.getByRole('button', { name: 'Export the data of Marie Curie' }));
    const dialog = screen.getByRole('dialog', { name: 'Export Data: Marie Curie' });
    expect(
      within(dialog).getByText(/One ZIP of everything Readiness holds about this student/),
    ).toBeInTheDocument();
    // Nothing is asked of the services (nor audited) before the admin says so.
    await waitFor(() => expect(asked.statusCalls).toBeGreaterThan(0));
    expect(asked.requests).toBe(0);

    await user.click(within(dialog).getByRole('button', { name: 'Gather the data' }));
    const status = within(dialog).getByRole('status');
    await waitFor(() =>
      expect(status).toHaveTextContent(/Gathering… [24] of 5 parts of the product have answered/),
    );
    await within(dialog).findByRole('button', { name: 'Download ZIP' }, { timeout: 8_000 });
    expect(status).toHaveTextContent('Ready. It can be downloaded until');
    expect(asked.requests).toBe(1);

    await user.click(within(dialog).getByRole('button', { name: 'Download ZIP' }));
    await waitFor(() =>
      expect(saved).toEqual([`Marie-Curie-data-${new Date().toISOString().slice(0, 10)}.zip`]),
    );
    expect(asked.downloads).toEqual([expect.stringMatching(/^Bearer /)]);
  });

  it('when the export cannot be started, then the service’s reason shows and nothing is downloaded', async () => {
    server.use(
      http.get('/api/admin/students/{id}/export/status', () =>
        refusal(404, { message: 'No data export was requested for this student', code: 'export_not_found' }),
      ),
      http.post('/api/admin/students/{id}/export', () =>
        refusal(404, { message: 'Student not found', code: 'student_not_found' }),
      ),
    );
    const { user } = renderApp('/admin/students', { token: openSession(superAdmin._id) });
    await screen.findByRole('table', { name: 'Students' });
    await user.click(screen.getByRole('button', { name: 'Export the data of Niels Bohr' }));
    const dialog = screen.getByRole('dialog', { name: 'Export Data: Niels Bohr' });
    await user.click(within(dialog).getByRole('button', { name: 'Gather the data' }));
    expect(await screen.findByText('Student not found')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Download ZIP' })).not.toBeInTheDocument();
    expect(saved).toEqual([]);
  });
});
