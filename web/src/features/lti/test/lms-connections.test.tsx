import { screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { regularAdmin, superAdmin } from '../../../testing/fixtures';
import { expectErrorAtField } from '../../../testing/fields';
import { answer } from '../../../testing/answer';
import { http } from '../../../testing/openapi-http';
import { renderApp } from '../../../testing/render';
import { db, openSession, PLATFORM_TAKEN_MESSAGE, server } from '../../../testing/server';

async function openConnections() {
  const app = renderApp('/admin/lms-connections', { token: openSession(superAdmin._id) });
  await screen.findByRole('table', { name: 'LMS connections' });
  return app;
}

const row = (name: string) => screen.getByRole('row', { name: new RegExp(name) });
const sent = (method: string, path: string) =>
  db.requests.filter((r) => r.method === method && r.path === path);

type User = Awaited<ReturnType<typeof openConnections>>['user'];

async function fill(user: User, dialog: HTMLElement, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) {
    const field = within(dialog).getByLabelText(label);
    await user.clear(field);
    if (value) await user.type(field, value);
  }
}

/** Presses `button` in the open dialog named `dialog`. */
const confirmIn = (user: User, dialog: string, button: string) =>
  user.click(within(screen.getByRole('dialog', { name: dialog })).getByRole('button', { name: button }));

const NEW_CANVAS = {
  Name: 'District Canvas',
  Issuer: 'https://canvas.instructure.com',
  'Client ID': '10000000000042',
  'Deployment IDs': '12:abc{enter}13:def, 12:abc',
  'Authorization URL': 'https://sso.canvaslms.com/api/lti/authorize_redirect',
  'Key set (JWKS) URL': 'https://sso.canvaslms.com/api/lti/security/jwks',
  'Access token URL': 'https://sso.canvaslms.com/login/oauth2/token',
};

describe('LMS connections', () => {
  it('when the screen opens, then the URLs to paste are on this origin and each copies with a "Copied" toast', async () => {
    const { user } = await openConnections();
    expect(screen.getByRole('heading', { level: 1, name: 'LMS connections' })).toBeInTheDocument();
    const box = screen.getByRole('region', { name: 'What to paste into your LMS' });
    const origin = window.location.origin;
    for (const path of ['/api/lti/login', '/api/lti/launch', '/api/lti/jwks']) {
      expect(within(box).getByText(`${origin}${path}`)).toBeInTheDocument();
    }
    const write = jest.spyOn(navigator.clipboard, 'writeText');
    await user.click(within(box).getByRole('button', { name: 'Copy login initiation URL' }));
    expect(await screen.findByText('Copied')).toBeInTheDocument();
    expect(write).toHaveBeenLastCalledWith(`${origin}/api/lti/login`);
    await user.click(within(box).getByRole('button', { name: 'Copy redirect (launch) URL' }));
    expect(write).toHaveBeenLastCalledWith(`${origin}/api/lti/launch`);
    await user.click(within(box).getByRole('button', { name: 'Copy public keyset URL' }));
    expect(write).toHaveBeenLastCalledWith(`${origin}/api/lti/jwks`);
  });

  it('when "Make a registration link" is pressed, then the one-time link shows with its Copy and how long it works', async () => {
    server.use(
      http.post('/api/admin/lti/registration-links', () =>
        answer(
          '/api/admin/lti/registration-links',
          'post',
          {
            url: 'https://readiness.example.edu/api/lti/register?link=one-time',
            expiresAt: '2026-12-02T12:00:00.000Z',
          },
          { status: 201 },
        ),
      ),
    );
    const { user } = await openConnections();
    await user.click(screen.getByRole('button', { name: 'Make a registration link' }));
    expect(await screen.findByTestId('registration-link')).toHaveTextContent(
      'https://readiness.example.edu/api/lti/register?link=one-time',
    );
    expect(screen.getByRole('button', { name: 'Copy registration link' })).toBeInTheDocument();
    expect(screen.getByText(/Works once, until Dec 2, 2026/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Make a registration link' })).not.toBeInTheDocument();
  });

  it('when the list loads, then each connection shows its issuer, client ID, deployment IDs and status', async () => {
    await openConnections();
    const moodle = row('Campus Moodle');
    expect(within(moodle).getByText('https://moodle.example.edu')).toBeInTheDocument();
    expect(within(moodle).getByText('readiness-tool')).toBeInTheDocument();
    expect(within(moodle).getByText('1, 7')).toBeInTheDocument();
    expect(within(moodle).getByText('Active')).toBeInTheDocument();
  });

  it('when there is no connection, then the empty state says so', async () => {
    db.platforms.clear();
    renderApp('/admin/lms-connections', { token: openSession(superAdmin._id) });
    expect(await screen.findByText('No LMS connected yet')).toBeInTheDocument();
  });

  it('when the list fails to load, then "Failed to load LMS connections" shows', async () => {
    server.use(
      http.get('/api/admin/lti/platforms', () =>
        HttpResponse.json({ message: 'down', code: 'unavailable' }, { status: 503 }),
      ),
    );
    renderApp('/admin/lms-connections', { token: openSession(superAdmin._id) });
    expect(await screen.findByText('Failed to load LMS connections')).toBeInTheDocument();
  });

  it('when the add form is sent empty or wrong, then each rule shows at its field and nothing is sent', async () => {
    const { user } = await openConnections();
    await user.click(screen.getByRole('button', { name: 'Add connection' }));
    const dialog = screen.getByRole('dialog', { name: 'Add LMS connection' });
    await user.click(within(dialog).getByRole('button', { name: 'Add connection' }));
    expect(await within(dialog).findByText('Name is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Issuer is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Client ID is required')).toBeInTheDocument();
    expect(within(dialog).getByText('At least one deployment ID is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Authorization URL is required')).toBeInTheDocument();

    await fill(user, dialog, {
      'Deployment IDs': ' , ',
      'Authorization URL': 'moodle.example.edu/auth',
      'Key set (JWKS) URL': 'ftp://moodle.example.edu/keys',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Add connection' }));
    expect(await within(dialog).findByText('Authorization URL must be a URL')).toBeInTheDocument();
    expect(within(dialog).getByText('Key set (JWKS) URL must be a URL')).toBeInTheDocument();
    expect(within(dialog).getByText('At least one deployment ID is required')).toBeInTheDocument();
    expect(sent('POST', '/api/admin/lti/platforms')).toHaveLength(0);
  });

  it('when a valid connection is added, then the deployment IDs go as a list, a toast confirms and the row shows', async () => {
    const { user } = await openConnections();
    await user.click(screen.getByRole('button', { name: 'Add connection' }));
    const dialog = screen.getByRole('dialog', { name: 'Add LMS connection' });
    await fill(user, dialog, NEW_CANVAS);
    await user.click(within(dialog).getByRole('button', { name: 'Add connection' }));
    expect(await screen.findByText('LMS connection added')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(within(row('District Canvas')).getByText('Active')).toBeInTheDocument());
    const saved = [...db.platforms.values()].find((p) => p.name === 'District Canvas')!;
    expect(saved.deploymentIds).toEqual(['12:abc', '13:def']);
    expect(saved.disabled).toBe(false);
  });

  it('when the issuer and client ID are connected already, then the refusal shows at Issuer', async () => {
    const { user } = await openConnections();
    await user.click(screen.getByRole('button', { name: 'Add connection' }));
    const dialog = screen.getByRole('dialog', { name: 'Add LMS connection' });
    await fill(user, dialog, {
      ...NEW_CANVAS,
      Issuer: 'https://moodle.example.edu',
      'Client ID': 'readiness-tool',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Add connection' }));
    await expectErrorAtField(within(dialog).getByLabelText('Issuer'), PLATFORM_TAKEN_MESSAGE);
  });

  it('when the server refuses a field (an http URL), then its message shows at that field', async () => {
    server.use(
      http.post('/api/admin/lti/platforms', () =>
        HttpResponse.json(
          { message: 'Access token URL must be an https URL', code: 'validation_failed', field: 'tokenUrl' },
          { status: 400 },
        ),
      ),
    );
    const { user } = await openConnections();
    await user.click(screen.getByRole('button', { name: 'Add connection' }));
    const dialog = screen.getByRole('dialog', { name: 'Add LMS connection' });
    await fill(user, dialog, { ...NEW_CANVAS, 'Access token URL': 'http://canvas.example.edu/token' });
    await user.click(within(dialog).getByRole('button', { name: 'Add connection' }));
    await expectErrorAtField(
      within(dialog).getByLabelText('Access token URL'),
      'Access token URL must be an https URL',
    );
  });

  it('when a connection is edited, then the form starts from it, a toast confirms and the row changes', async () => {
    const { user } = await openConnections();
    await user.click(screen.getByRole('button', { name: 'Edit Campus Moodle' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit LMS connection' });
    expect(within(dialog).getByLabelText('Deployment IDs')).toHaveValue('1\n7');
    await fill(user, dialog, { Name: 'Main Moodle', 'Deployment IDs': '1,7,9' });
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('LMS connection updated')).toBeInTheDocument();
    await waitFor(() => expect(within(row('Main Moodle')).getByText('1, 7, 9')).toBeInTheDocument());
    expect(db.platforms.get('p-1')).toMatchObject({ name: 'Main Moodle', disabled: false });
  });

  it('when Disable is confirmed, then the connection is disabled; Enable turns it back without asking', async () => {
    const { user } = await openConnections();
    await user.click(screen.getByRole('button', { name: 'Disable Campus Moodle' }));
    const dialog = screen.getByRole('dialog', { name: 'Disable LMS connection' });
    expect(dialog).toHaveTextContent('Disable Campus Moodle?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(sent('PUT', '/api/admin/lti/platforms/p-1')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Disable Campus Moodle' }));
    await confirmIn(user, 'Disable LMS connection', 'Disable');
    expect(await screen.findByText('LMS connection disabled')).toBeInTheDocument();
    await waitFor(() => expect(within(row('Campus Moodle')).getByText('Disabled')).toBeInTheDocument());
    expect(db.platforms.get('p-1')).toMatchObject({ disabled: true, deploymentIds: ['1', '7'] });

    await user.click(screen.getByRole('button', { name: 'Enable Campus Moodle' }));
    expect(await screen.findByText('LMS connection enabled')).toBeInTheDocument();
    await waitFor(() => expect(within(row('Campus Moodle')).getByText('Active')).toBeInTheDocument());
    expect(db.platforms.get('p-1')!.disabled).toBe(false);
  });

  it('when Delete is pressed, then it asks first, and only the confirmation deletes it', async () => {
    const { user } = await openConnections();
    await user.click(screen.getByRole('button', { name: 'Delete Campus Moodle' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete LMS connection' });
    expect(dialog).toHaveTextContent('Delete Campus Moodle?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(db.platforms.has('p-1')).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Delete Campus Moodle' }));
    await confirmIn(user, 'Delete LMS connection', 'Delete');
    expect(await screen.findByText('LMS connection deleted')).toBeInTheDocument();
    expect(await screen.findByText('No LMS connected yet')).toBeInTheDocument();
    expect(db.platforms.has('p-1')).toBe(false);
  });

  it('when a super admin is on Admin Management, then an "LMS connections" link leads to the screen', async () => {
    const { user } = renderApp('/admin/admins', { token: openSession(superAdmin._id) });
    await user.click(await screen.findByRole('link', { name: 'LMS connections' }));
    expect(await screen.findByRole('table', { name: 'LMS connections' })).toBeInTheDocument();
  });

  it('when a regular admin opens the screen, then they are sent to the dashboard and nothing is asked', async () => {
    const { router } = renderApp('/admin/lms-connections', { token: openSession(regularAdmin._id) });
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/dashboard'));
    expect(screen.queryByRole('link', { name: 'LMS connections' })).not.toBeInTheDocument();
    expect(sent('GET', '/api/admin/lti/platforms')).toHaveLength(0);
  });
});
