import { screen, waitFor, within } from '@testing-library/react';
import { http } from '../../../testing/openapi-http';
import { superAdmin } from '../../../testing/fixtures';
import { answer, outage, refusal } from '../../../testing/answer';
import { expectErrorAtField } from '../../../testing/fields';
import { renderApp } from '../../../testing/render';
import { db, DEMOTE_SELF_MESSAGE, openSession, server } from '../../../testing/server';

async function openAdmins() {
  const app = renderApp('/admin/admins', { token: openSession(superAdmin._id) });
  await screen.findByRole('table', { name: 'Administrators' });
  return app;
}

const row = (name: string) => screen.getByRole('row', { name: new RegExp(name) });
const stat = (label: string) =>
  within(screen.getByRole('region', { name: label })).getByText(/^\d+$/).textContent;

describe('Admin Management', () => {
  it('when the list loads, then the stats count the admins and a never-used account shows "Never"', async () => {
    await openAdmins();
    expect(screen.getByRole('heading', { level: 1, name: 'Admin Management' })).toBeInTheDocument();
    expect(stat('Total Admins')).toBe('3');
    expect(stat('Active')).toBe('2');
    expect(stat('Disabled')).toBe('1');
    expect(stat('Super Admins')).toBe('1');
    expect(within(row('Alan Turing')).getByText('Never')).toBeInTheDocument();
    expect(within(row('Alan Turing')).getByText('Regular Admin')).toBeInTheDocument();
    expect(within(row('Grace Hopper')).getByText('Super Admin')).toBeInTheDocument();
    expect(within(row('Ada Lovelace')).getByText('Disabled')).toBeInTheDocument();
  });

  it('when searching, then name or e-mail match case-insensitively and no match shows "No admins found"', async () => {
    const { user } = await openAdmins();
    const search = screen.getByRole('searchbox', { name: 'Search admins' });
    await user.type(search, 'TURING');
    expect(screen.getAllByRole('row')).toHaveLength(2); // header + Alan
    expect(row('Alan Turing')).toBeInTheDocument();
    await user.clear(search);
    await user.type(search, 'ADA@EXAMPLE');
    expect(row('Ada Lovelace')).toBeInTheDocument();
    expect(screen.queryByText('Grace Hopper', { selector: '.person__name' })).not.toBeInTheDocument();
    await user.clear(search);
    await user.type(search, 'nobody');
    expect(screen.getByText('No admins found')).toBeInTheDocument();
  });

  it('when the list is empty, then "No admins found" shows', async () => {
    server.use(http.get('/api/admin/admins', () => answer('/api/admin/admins', 'get', { admins: [] })));
    renderApp('/admin/admins', { token: openSession(superAdmin._id) });
    expect(await screen.findByText('No admins found')).toBeInTheDocument();
  });

  it('when the list fails to load, then "Failed to load admins" shows', async () => {
    server.use(
      http.get('/api/admin/admins', ({ response }) => response.untyped(outage(503, { message: 'down' }))),
    );
    renderApp('/admin/admins', { token: openSession(superAdmin._id) });
    expect(await screen.findByText('Failed to load admins')).toBeInTheDocument();
  });

  it('when the create form is sent empty or wrong, then every rule of the form shows its message', async () => {
    const { user } = await openAdmins();
    await user.click(screen.getByRole('button', { name: 'Add Admin' }));
    const dialog = screen.getByRole('dialog', { name: 'Create Admin' });
    await user.click(within(dialog).getByRole('button', { name: 'Create Admin' }));
    expect(await within(dialog).findByText('Name is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Email is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Password is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Role is required')).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText('Name'), 'K');
    await user.type(within(dialog).getByLabelText('Email'), 'k@nowhere');
    await user.type(within(dialog).getByLabelText('Password'), 'abc');
    await user.click(within(dialog).getByRole('button', { name: 'Create Admin' }));
    expect(await within(dialog).findByText('Name must be at least 2 characters')).toBeInTheDocument();
    expect(within(dialog).getByText('Invalid email address')).toBeInTheDocument();
    expect(within(dialog).getByText('Password must be at least 6 characters')).toBeInTheDocument();
    expect(db.requests.filter((r) => r.method === 'POST' && r.path === '/api/admin/admins')).toHaveLength(0);
  });

  it('when a valid admin is created, then the toast names them and the table and stats include them', async () => {
    const { user } = await openAdmins();
    await user.click(screen.getByRole('button', { name: 'Add Admin' }));
    const dialog = screen.getByRole('dialog', { name: 'Create Admin' });
    expect(within(dialog).getByRole('option', { name: 'Regular Admin' })).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Name'), 'Katherine Johnson');
    await user.type(within(dialog).getByLabelText('Email'), 'katherine@example.edu');
    await user.type(within(dialog).getByLabelText('Password'), 'temporary1');
    await user.selectOptions(within(dialog).getByLabelText('Role'), 'Super Admin');
    await user.click(within(dialog).getByRole('button', { name: 'Create Admin' }));
    expect(await screen.findByText('Admin Katherine Johnson created successfully')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await waitFor(() => expect(row('Katherine Johnson')).toBeInTheDocument());
    expect(stat('Super Admins')).toBe('2');
  });

  it('when the create form opens, then the password field names its rule and says the new admin replaces it at first sign-in', async () => {
    const { user } = await openAdmins();
    await user.click(screen.getByRole('button', { name: 'Add Admin' }));
    const dialog = screen.getByRole('dialog', { name: 'Create Admin' });
    // Told before anyone breaks the rule, and before the super admin picks a password they might share.
    expect(within(dialog).getByLabelText('Password')).toHaveAccessibleDescription(
      'At least 6 characters, and not one of the common passwords. The new admin signs in with it once: they will be asked to choose their own password at first sign-in.',
    );
    expect(
      within(dialog).getByText(/they will be asked to choose their own password at first sign-in\./),
    ).toBeVisible();
  });

  it('when the e-mail is taken, then the server message shows at the Email field and the dialog stays open', async () => {
    const { user } = await openAdmins();
    await user.click(screen.getByRole('button', { name: 'Add Admin' }));
    const dialog = screen.getByRole('dialog', { name: 'Create Admin' });
    await user.type(within(dialog).getByLabelText('Name'), 'Another Alan');
    await user.type(within(dialog).getByLabelText('Email'), 'alan@example.edu');
    await user.type(within(dialog).getByLabelText('Password'), 'temporary1');
    await user.selectOptions(within(dialog).getByLabelText('Role'), 'admin');
    await user.click(within(dialog).getByRole('button', { name: 'Create Admin' }));
    await expectErrorAtField(
      within(dialog).getByLabelText('Email'),
      'An admin with this email already exists',
    );
    expect(screen.getByRole('dialog', { name: 'Create Admin' })).toBeInTheDocument();
  });

  it('when creation fails without a message, then "Failed to create admin" shows', async () => {
    server.use(http.post('/api/admin/admins', ({ response }) => response.untyped(outage(500))));
    const { user } = await openAdmins();
    await user.click(screen.getByRole('button', { name: 'Add Admin' }));
    const dialog = screen.getByRole('dialog', { name: 'Create Admin' });
    await user.type(within(dialog).getByLabelText('Name'), 'Mary Jackson');
    await user.type(within(dialog).getByLabelText('Email'), 'mary@example.edu');
    await user.type(within(dialog).getByLabelText('Password'), 'temporary1');
    await user.selectOptions(within(dialog).getByLabelText('Role'), 'admin');
    await user.click(within(dialog).getByRole('button', { name: 'Create Admin' }));
    expect(await screen.findByText('Failed to create admin')).toBeInTheDocument();
  });

  it('when an admin is edited, then the rules apply, the toast confirms and the row changes', async () => {
    const { user } = await openAdmins();
    await user.click(screen.getByRole('button', { name: 'Edit Alan Turing' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Admin' });
    const name = within(dialog).getByLabelText('Name');
    const email = within(dialog).getByLabelText('Email');
    expect(name).toHaveValue('Alan Turing');
    await user.clear(name);
    await user.type(name, 'A');
    await user.clear(email);
    await user.type(email, 'broken');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await within(dialog).findByText('Name must be at least 2 characters')).toBeInTheDocument();
    expect(within(dialog).getByText('Invalid email address')).toBeInTheDocument();
    await user.clear(email);
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await within(dialog).findByText('Email is required')).toBeInTheDocument();

    await user.clear(name);
    await user.type(name, 'Alan M. Turing');
    await user.type(email, 'alan.turing@example.edu');
    await user.selectOptions(within(dialog).getByLabelText('Role'), 'super_admin');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Admin updated successfully')).toBeInTheDocument();
    await waitFor(() =>
      expect(within(row('Alan M. Turing')).getByText('alan.turing@example.edu')).toBeInTheDocument(),
    );
    expect(db.accounts.get('a-regular')!.admin.role).toBe('super_admin');
  });

  it('when an update fails, then the server message shows, else "Failed to update admin"', async () => {
    server.use(
      http.put('/api/admin/admins/{id}', () =>
        refusal(409, { message: 'Email already in use', code: 'email_taken' }),
      ),
    );
    const { user } = await openAdmins();
    await user.click(screen.getByRole('button', { name: 'Edit Alan Turing' }));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Email already in use')).toBeInTheDocument();

    server.use(http.put('/api/admin/admins/{id}', ({ response }) => response.untyped(outage(500))));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Failed to update admin')).toBeInTheDocument();
  });

  it('when the super admin removes their own super admin role, then the refusal shows at Role', async () => {
    const { user } = await openAdmins();
    await user.click(screen.getByRole('button', { name: 'Edit Grace Hopper' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Admin' });
    await user.selectOptions(within(dialog).getByLabelText('Role'), 'admin');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await expectErrorAtField(within(dialog).getByLabelText('Role'), DEMOTE_SELF_MESSAGE);
    expect(db.accounts.get(superAdmin._id)!.admin.role).toBe('super_admin');
  });

  it('when reset password is chosen, then it asks first and only a confirmation sends it', async () => {
    const { user } = await openAdmins();
    await user.click(screen.getByRole('button', { name: 'Reset password for Alan Turing' }));
    const dialog = screen.getByRole('dialog', { name: 'Reset Password' });
    expect(within(dialog).getByText(/alan@example.edu/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(db.requests.some((r) => r.path.endsWith('/reset-password'))).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Reset password for Alan Turing' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Reset Password' })).getByRole('button', {
        name: 'Reset Password',
      }),
    );
    expect(
      await screen.findByText(
        'Password reset successfully. A temporary password has been sent to alan@example.edu',
      ),
    ).toBeInTheDocument();
    expect(db.requests.filter((r) => r.path === '/api/admin/admins/a-regular/reset-password')).toHaveLength(
      1,
    );
  });

  it('when a reset fails without a message, then "Failed to reset password" shows', async () => {
    server.use(
      http.post('/api/admin/admins/{id}/reset-password', ({ response }) => response.untyped(outage(502))),
    );
    const { user } = await openAdmins();
    await user.click(screen.getByRole('button', { name: 'Reset password for Alan Turing' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Reset Password' })).getByRole('button', {
        name: 'Reset Password',
      }),
    );
    expect(await screen.findByText('Failed to reset password')).toBeInTheDocument();
  });

  it('when Disable is pressed, then a dialog names the admin and what disabling does, and Cancel changes nothing', async () => {
    const { user } = await openAdmins();
    await user.click(screen.getByRole('button', { name: 'Disable Alan Turing' }));
    const dialog = screen.getByRole('dialog', { name: 'Disable Admin' });
    expect(dialog).toHaveTextContent('Disable Alan Turing?');
    expect(dialog).toHaveTextContent(
      'Their sessions end at once and they cannot sign in until a super admin enables the account again.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog', { name: 'Disable Admin' })).not.toBeInTheDocument();
    expect(db.requests.filter((r) => r.path === '/api/admin/admins/a-regular/status')).toHaveLength(0);
    expect(db.accounts.get('a-regular')!.admin.status).toBe('active');
  });

  it('when an active admin is disabled and a disabled one enabled, then each toast confirms and the status flips', async () => {
    const { user } = await openAdmins();
    await user.click(screen.getByRole('button', { name: 'Disable Alan Turing' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Disable Admin' })).getByRole('button', { name: 'Disable' }),
    );
    expect(await screen.findByText('Admin disabled successfully')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Disable Admin' })).not.toBeInTheDocument();
    await waitFor(() => expect(within(row('Alan Turing')).getByText('Disabled')).toBeInTheDocument());
    expect(db.accounts.get('a-regular')!.admin.status).toBe('disabled');

    await user.click(screen.getByRole('button', { name: 'Enable Ada Lovelace' }));
    expect(await screen.findByText('Admin enabled successfully')).toBeInTheDocument();
    await waitFor(() => expect(within(row('Ada Lovelace')).getByText('Active')).toBeInTheDocument());
  });

  it('when the status change fails, then "Failed to update admin status" shows', async () => {
    server.use(
      http.patch('/api/admin/admins/{id}/status', ({ response }) => response.untyped(outage(500, {}))),
    );
    const { user } = await openAdmins();
    await user.click(screen.getByRole('button', { name: 'Disable Alan Turing' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Disable Admin' })).getByRole('button', { name: 'Disable' }),
    );
    expect(await screen.findByText('Failed to update admin status')).toBeInTheDocument();
  });

  it('when looking at their own row, then the super admin cannot disable themselves', async () => {
    await openAdmins();
    expect(screen.getByRole('button', { name: 'Disable Grace Hopper' })).toBeDisabled();
  });

  it('when the super admin follows a link of Admin Management to the Audit Log or Webhooks, then the sidebar keeps Admins highlighted as the current section, not as the page', async () => {
    const { user } = await openAdmins();
    const sidebarLink = (name: string) =>
      within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name });
    expect(sidebarLink('Admins')).toHaveAttribute('aria-current', 'page');
    for (const [link, heading] of [
      ['Audit Log', 'Audit Log'],
      ['Webhooks', 'Webhooks'],
    ] as const) {
      await user.click(sidebarLink('Admins'));
      await user.click(within(screen.getByRole('main')).getByRole('link', { name: link }));
      expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
      expect(sidebarLink('Admins')).toHaveAttribute('aria-current', 'true');
      expect(sidebarLink('Admins')).toHaveClass('nav-link--active');
      expect(sidebarLink('Dashboard')).not.toHaveAttribute('aria-current');
      expect(sidebarLink('Dashboard')).not.toHaveClass('nav-link--active');
    }
  });
});
