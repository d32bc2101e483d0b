import { screen, waitFor, within } from '@testing-library/react';
import { http } from '../../../testing/openapi-http';
import { renderApp } from '../../../testing/render';
import { answer } from '../../../testing/answer';
import { db, openSession, server } from '../../../testing/server';
import type { AuditEntry } from '../api/audit-api';
import { dayBoundary } from '../components/audit-filters';
import { AUDIT_ACTIONS, AUDIT_ACTION_LABELS } from '../../../../../proto/src/audit-actions';

const entry = (i: number, action = 'admin.signed-in'): AuditEntry => ({
  _id: `e-${i}`,
  actor: { _id: 'a-1', name: 'Grace Hopper', email: 'grace@example.edu' },
  action,
  target: { _id: 'a-1', name: 'Grace Hopper', email: 'grace@example.edu' },
  details: { method: 'sso' },
  createdAt: new Date(Date.UTC(2026, 10, 20, 12, 0, 0) - i * 60_000).toISOString(),
});

function serveLog(entries: AuditEntry[]) {
  const asked: URLSearchParams[] = [];
  server.use(
    http.get('/api/admin/audit-log', ({ request }) => {
      const params = new URL(request.url).searchParams;
      asked.push(params);
      const before = params.get('before');
      const action = params.get('action');
      const found = entries
        .filter((e) => !before || e.createdAt < before)
        .filter((e) => !action || e.action === action)
        .slice(0, Number(params.get('limit') ?? 50));
      return answer('/api/admin/audit-log', 'get', { entries: found });
    }),
  );
  return asked;
}

function openAsSuperAdmin(path = '/admin/audit') {
  const owner = [...db.accounts.values()].find((a) => a.admin.role === 'super_admin')!;
  return renderApp(path, { token: openSession(owner.admin._id) });
}

describe('Audit log', () => {
  it('when a super admin opens it, then the entries show in words, newest first, and older pages follow the last one', async () => {
    const asked = serveLog(Array.from({ length: 60 }, (_, i) => entry(i)));
    const { user } = openAsSuperAdmin();
    const table = await screen.findByRole('table', { name: 'Audit log, newest first' });
    expect(within(table).getAllByText('Signed in')).toHaveLength(50);
    expect(within(table).getAllByText('through single sign-on')).toHaveLength(50);
    await user.click(screen.getByRole('button', { name: 'Older' }));
    await waitFor(() => expect(within(screen.getByRole('table')).getAllByText('Signed in')).toHaveLength(10));
    expect(asked.at(-1)?.get('before')).toBe(entry(49).createdAt);
    expect(screen.getByRole('button', { name: 'Older' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Newer' }));
    await waitFor(() => expect(within(screen.getByRole('table')).getAllByText('Signed in')).toHaveLength(50));
  });

  it('when an action is chosen, then only its entries are asked for, and an empty answer says nothing matches', async () => {
    const asked = serveLog([entry(1), entry(2, 'student.deleted')]);
    const { user } = openAsSuperAdmin();
    await screen.findByRole('table');
    await user.selectOptions(screen.getByLabelText('Action'), 'Result deleted');
    expect(await screen.findByText('Nothing in the audit log matches these filters.')).toBeInTheDocument();
    expect(asked.at(-1)?.get('action')).toBe('result.deleted');
  });

  it('given every action the services can write, then the filter offers each by its label, and the table shows it in words', async () => {
    serveLog([entry(1, 'admin.mfa-enrolled'), entry(2, 'admin.mfa-recovery-code-used')]);
    const { user } = openAsSuperAdmin();
    const table = await screen.findByRole('table');
    expect(within(table).getByText('Second factor added')).toBeInTheDocument();
    expect(within(table).getByText('Recovery code used')).toBeInTheDocument();
    const options = within(screen.getByLabelText('Action'))
      .getAllByRole('option')
      .filter((o) => (o as HTMLOptionElement).value !== '');
    const offered = Object.fromEntries(options.map((o) => [(o as HTMLOptionElement).value, o.textContent]));
    // Every key, each by the words the CSV export also uses, none by its own key.
    expect(Object.keys(offered).sort()).toEqual([...AUDIT_ACTIONS].sort());
    for (const action of AUDIT_ACTIONS) expect(offered[action]).toBe(AUDIT_ACTION_LABELS[action]);
    await user.selectOptions(screen.getByLabelText('Action'), 'Second factor added');
    await waitFor(() => expect(screen.getByLabelText('Action')).toHaveValue('admin.mfa-enrolled'));
  });

  it('when webhook endpoints were changed by an admin or disabled by the product, then each entry names the endpoint by its URL, with who did it and why', async () => {
    const url = 'https://crm.example.edu/readiness/events';
    const endpoint = { _id: 'w-1', name: url, email: '' };
    serveLog([
      { ...entry(1, 'webhook.endpoint-added'), target: endpoint, details: { description: 'Admissions CRM' } },
      {
        ...entry(2, 'webhook.endpoint-disabled-failing'),
        actor: null,
        target: endpoint,
        details: { reason: 'Failed for 72 h; last answer: 503 busy' },
      },
    ]);
    openAsSuperAdmin();
    const table = await screen.findByRole('table', { name: 'Audit log, newest first' });
    const [added, failing] = within(table).getAllByRole('row').slice(1);
    expect(within(added!).getByText('Webhook endpoint added')).toBeInTheDocument();
    expect(within(added!).getByText('Grace Hopper')).toBeInTheDocument();
    expect(within(added!).getByText(url)).toBeInTheDocument();
    expect(within(added!).getByText('Admissions CRM')).toBeInTheDocument();
    expect(within(failing!).getByText('Webhook endpoint disabled after failing')).toBeInTheDocument();
    expect(within(failing!).getByText(url)).toBeInTheDocument();
    expect(within(failing!).getByText('Failed for 72 h; last answer: 503 busy')).toBeInTheDocument();
    expect(within(failing!).queryByText('Grace Hopper')).not.toBeInTheDocument();
  });

  it('turns calendar days into the times the API filters by, in the admin’s own time zone', () => {
    expect(dayBoundary('2026-11-20')).toBe(new Date(2026, 10, 20).toISOString());
    expect(dayBoundary('2026-11-20', true)).toBe(new Date(2026, 10, 21).toISOString());
    expect(dayBoundary('20/11/2026')).toBeUndefined();
  });
});
