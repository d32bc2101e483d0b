import { act, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { http } from '../../../testing/openapi-http';
import { TOKEN_STORAGE_KEY } from '../../../lib/session-token';
import { regularAdmin, superAdmin } from '../../../testing/fixtures';
import { answer, outage } from '../../../testing/answer';
import { renderApp } from '../../../testing/render';
import { db, openSession, PASSWORD, server } from '../../../testing/server';

const storedToken = () => window.localStorage.getItem(TOKEN_STORAGE_KEY);

describe('Admin session', () => {
  it('when a stored token is being checked, then a centred spinner shows until the admin is loaded', async () => {
    // The check answers only once the spinner has been seen, however slow the machine is.
    let release!: () => void;
    const answered = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.get('/api/auth/me', async () => {
        await answered;
        return answer('/api/auth/me', 'get', { admin: superAdmin });
      }),
    );
    renderApp('/admin/dashboard', { token: openSession(superAdmin._id) });
    expect(await screen.findByRole('status', { name: 'Checking your session' })).toBeInTheDocument();
    release();
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Checking your session' })).not.toBeInTheDocument();
  });

  it('when nobody is signed in, then a guarded page replaces itself with login and sign-in returns to it', async () => {
    const { router, user } = renderApp('/admin/results?page=2');
    expect(await screen.findByRole('heading', { name: 'Admin Portal' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/login');
    expect(router.state.historyAction).toBe('REPLACE');

    await user.type(screen.getByLabelText('Email'), 'grace@example.edu');
    await user.type(screen.getByLabelText('Password'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Results Management' })).toBeInTheDocument();
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/admin/results?page=2');
  });

  it('when a stored token is valid, then the admin is signed in with name and role in the layout', async () => {
    renderApp('/admin/dashboard', { token: openSession(superAdmin._id) });
    const sidebar = await screen.findByRole('complementary', { name: 'Sidebar' });
    expect(within(sidebar).getByText('Grace Hopper')).toBeInTheDocument();
    expect(within(sidebar).getByText('Super Admin')).toBeInTheDocument();
    const header = screen.getByRole('heading', { level: 1, name: 'Dashboard' }).closest('header')!;
    expect(within(header).getByText('Grace Hopper')).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['Dashboard', 'Students', 'Live', 'Assessments', 'Results', 'Admins']);
  });

  it('when the session check fails, then it is logged, the token is removed and login shows', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    server.use(
      http.get('/api/auth/me', ({ response }) => response.untyped(outage(500, { message: 'boom' }))),
    );
    const { router } = renderApp('/admin/dashboard', { token: openSession(superAdmin._id) });
    expect(await screen.findByRole('heading', { name: 'Admin Portal' })).toBeInTheDocument();
    expect(logged).toHaveBeenCalledWith('Auth check failed:', expect.anything());
    expect(storedToken()).toBeNull();
    expect(router.state.location.pathname).toBe('/admin/login');
    logged.mockRestore();
  });

  it('when the session check is answered 503 or 429 for a moment, then it asks again and the admin stays signed in', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const busy = [503, 429];
    server.use(
      http.get('/api/auth/me', ({ response }) => {
        const status = busy.shift();
        return status
          ? // Neither is declared: a gateway's 503, a rate limiter's 429.
            response.untyped(
              HttpResponse.json(
                { message: 'Service temporarily unavailable', code: 'unavailable' },
                { status },
              ),
            )
          : answer('/api/auth/me', 'get', { admin: superAdmin });
      }),
    );
    const token = openSession(superAdmin._id);
    renderApp('/admin/dashboard', { token });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Dashboard' }, { timeout: 5_000 }),
    ).toBeInTheDocument();
    expect(busy).toEqual([]);
    expect(storedToken()).toBe(token);
    expect(logged).not.toHaveBeenCalled();
    logged.mockRestore();
  });

  it('when the server stays unavailable through every retry of the session check, then the token is removed and login shows', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    let asked = 0;
    server.use(
      http.get('/api/auth/me', ({ response }) => {
        asked += 1;
        return response.untyped(outage(503, { message: 'Service temporarily unavailable' }));
      }),
    );
    const { router } = renderApp('/admin/dashboard', { token: openSession(superAdmin._id) });
    expect(
      await screen.findByRole('heading', { name: 'Admin Portal' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(asked).toBe(4);
    expect(logged).toHaveBeenCalledWith('Auth check failed:', expect.anything());
    expect(storedToken()).toBeNull();
    expect(router.state.location.pathname).toBe('/admin/login');
    logged.mockRestore();
  }, 15_000);

  it('when any call answers 401, then the admin is signed out and sent to login', async () => {
    const token = openSession(superAdmin._id);
    const { router, user } = renderApp('/admin/dashboard', { token });
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' });
    db.sessions.delete(token); // revoked elsewhere, e.g. the account was disabled
    await user.click(screen.getByRole('link', { name: 'Admins' }));
    expect(await screen.findByRole('heading', { name: 'Admin Portal' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/login');
    expect(storedToken()).toBeNull();
  });

  it('when a regular admin opens the super-admin screen, then they land on the dashboard without an Admins entry', async () => {
    const { router } = renderApp('/admin/admins', { token: openSession(regularAdmin._id) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/dashboard');
    expect(screen.queryByRole('link', { name: 'Admins' })).not.toBeInTheDocument();
    expect(screen.getByText('Admin', { selector: '.sidebar__user-role' })).toBeInTheDocument();
  });

  it('when a signed-in admin opens login, then they are sent on at once', async () => {
    const { router } = renderApp('/admin/login', { token: openSession(superAdmin._id) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/dashboard');
  });

  it('when Logout is pressed, then the token is revoked and dropped and login shows', async () => {
    const token = openSession(superAdmin._id);
    const { router, user } = renderApp('/admin/students', { token });
    await screen.findByRole('heading', { level: 1, name: 'Student Management' });
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    expect(await screen.findByRole('heading', { name: 'Admin Portal' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/login');
    expect(storedToken()).toBeNull();
    expect(db.sessions.has(token)).toBe(false);
  });

  it('when the token is within ten minutes of expiry, then it is renewed before the next call', async () => {
    const oldToken = openSession(superAdmin._id, 5 * 60);
    renderApp('/admin/admins', { token: oldToken });
    expect(await screen.findByText('Alan Turing')).toBeInTheDocument();
    expect(db.requests.some((r) => r.path === '/api/auth/refresh')).toBe(true);
    const renewed = storedToken();
    expect(renewed).not.toBe(oldToken);
    expect(db.sessions.has(renewed!)).toBe(true);
  });

  it('when the password is temporary, then only the change-password screen opens until a new one is set', async () => {
    db.accounts.get(regularAdmin._id)!.admin.mustChangePassword = true;
    const { router, user } = renderApp('/admin/results', { token: openSession(regularAdmin._id) });
    expect(await screen.findByRole('heading', { name: 'Change Password' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/change-password');

    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Current password is required')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Temporary password'), PASSWORD);
    await user.type(screen.getByLabelText('New password'), 'new-secret');
    await user.type(screen.getByLabelText('Confirm new password'), 'other-secret');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();

    await user.clear(screen.getByLabelText('Confirm new password'));
    await user.type(screen.getByLabelText('Confirm new password'), 'new-secret');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Password changed successfully')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Results Management' })).toBeInTheDocument();
    expect(db.accounts.get(regularAdmin._id)!.password).toBe('new-secret');
  });
});

describe('Public routes', () => {
  it('when / opens, then it says it is redirecting and replaces itself with the login page', async () => {
    const { router } = renderApp('/');
    expect(screen.getByText('Redirecting to admin portal...')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/login'));
    expect(router.state.historyAction).toBe('REPLACE');
  });

  it('when an unknown path opens, then the 404 page offers Go Home and Go Back', async () => {
    const { router, user } = renderApp('/admin/login');
    await screen.findByRole('heading', { name: 'Admin Portal' });
    await act(() => router.navigate('/no/such/page'));
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
    expect(screen.getByText(/does not exist or has been moved/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go Home' })).toHaveAttribute('href', '/');
    await user.click(screen.getByRole('button', { name: 'Go Back' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/login'));
  });
});

describe('Admin layout below 1024 px', () => {
  it('when the menu button is pressed, then the drawer opens with an overlay that closes it', async () => {
    const { user } = renderApp('/admin/dashboard', { token: openSession(superAdmin._id) });
    const menu = await screen.findByRole('button', { name: 'Open menu' });
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    await user.click(menu);
    expect(menu).toHaveAttribute('aria-expanded', 'true');
    await user.click(screen.getByTestId('drawer-overlay'));
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByTestId('drawer-overlay')).not.toBeInTheDocument();
  });
});
