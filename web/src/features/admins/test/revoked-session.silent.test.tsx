import { screen, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { TOKEN_STORAGE_KEY } from '../../../lib/session-token';
import { superAdmin } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/render';
import { db, openSession } from '../../../testing/server';

/** Opens Admin Management, then revokes the session on the server as disabling the account would. */
async function openAdminsThenRevoke() {
  const token = openSession(superAdmin._id);
  const app = renderApp('/admin/admins', { token });
  await screen.findByRole('table', { name: 'Administrators' });
  db.sessions.delete(token);
  return app;
}

/*
 * Toasts show in the order they were raised, so once the login refusal raised after the failed action
 * is on screen, a toast about that action would be too.
 */
async function refuseLoginAndWaitForItsToast(user: UserEvent) {
  await user.type(screen.getByLabelText('Email'), 'grace@example.edu');
  await user.type(screen.getByLabelText('Password'), 'wrong-password');
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
  expect(await screen.findByText('Invalid email or password')).toBeInTheDocument();
}

describe('Admin actions after the session was revoked', () => {
  it('when an edit answers 401, then the admin is signed out to login and no error toast shows', async () => {
    const { user, router } = await openAdminsThenRevoke();
    await user.click(screen.getByRole('button', { name: 'Edit Alan Turing' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Admin' });
    await user.clear(within(dialog).getByLabelText('Name'));
    await user.type(within(dialog).getByLabelText('Name'), 'Alan M. Turing');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByRole('heading', { name: 'Admin Portal' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/login');
    expect(window.localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    await refuseLoginAndWaitForItsToast(user);
    expect(screen.queryByText('Authentication required')).not.toBeInTheDocument();
    expect(screen.queryByText('Failed to update admin')).not.toBeInTheDocument();
  });

  it('when a status change answers 401, then the admin is signed out and "Failed to update admin status" does not show', async () => {
    const { user, router } = await openAdminsThenRevoke();
    await user.click(screen.getByRole('button', { name: 'Disable Alan Turing' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Disable Admin' })).getByRole('button', { name: 'Disable' }),
    );

    expect(await screen.findByRole('heading', { name: 'Admin Portal' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/login');
    await refuseLoginAndWaitForItsToast(user);
    expect(screen.queryByText('Failed to update admin status')).not.toBeInTheDocument();
    expect(db.accounts.get('a-regular')!.admin.status).toBe('active');
  });

  it('when a password reset answers 401, then its failure toast does not show', async () => {
    const { user, router } = await openAdminsThenRevoke();
    await user.click(screen.getByRole('button', { name: 'Reset password for Alan Turing' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Reset Password' })).getByRole('button', {
        name: 'Reset Password',
      }),
    );
    expect(await screen.findByRole('heading', { name: 'Admin Portal' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/login');
    await refuseLoginAndWaitForItsToast(user);
    expect(screen.queryByText('Authentication required')).not.toBeInTheDocument();
    expect(screen.queryByText('Failed to reset password')).not.toBeInTheDocument();
  });
});
