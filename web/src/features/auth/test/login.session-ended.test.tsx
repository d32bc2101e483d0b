import { screen, within } from '@testing-library/react';
import { answer, refusal } from '../../../testing/answer';
import { http } from '../../../testing/openapi-http';
import { makeToken, superAdmin } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/render';
import { ACCOUNT_DISABLED_MESSAGE, db, openSession, PASSWORD, server } from '../../../testing/server';

const ENDED =
  'You were signed out because your session was ended on another device or by a super admin. Please sign in again.';
const EVERYWHERE = 'You signed out of every session, this one included.';

async function signIn(user: ReturnType<typeof renderApp>['user'], email: string, password: string) {
  await user.type(screen.getByLabelText('Email'), email);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
}

/** Any call of the session: an admin saved from the Admins page. */
async function saveAnAdmin(user: ReturnType<typeof renderApp>['user']) {
  await user.click(screen.getByRole('button', { name: 'Edit Alan Turing' }));
  await user.click(
    within(screen.getByRole('dialog', { name: 'Edit Admin' })).getByRole('button', { name: 'Save Changes' }),
  );
}

describe('Login page after a session ended', () => {
  it('when a session is ended elsewhere while the admin works, then the login page says why', async () => {
    const token = openSession(superAdmin._id);
    const { user, router } = renderApp('/admin/admins', { token });
    await screen.findByRole('table', { name: 'Administrators' });
    // Another device signed out everywhere: this session's token is refused from now on.
    db.sessions.delete(token);
    await saveAnAdmin(user);

    expect(await screen.findByRole('heading', { name: 'Admin Portal' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/login');
    expect(screen.getByRole('status')).toHaveTextContent(ENDED);
  });

  it('when the app opens with a token that was ended elsewhere, then the login page says why', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderApp('/admin/dashboard', { token: makeToken(superAdmin._id) });
    expect(await screen.findByRole('heading', { name: 'Admin Portal' })).toBeInTheDocument();
    expect(await screen.findByText(ENDED)).toBeInTheDocument();
  });

  it('when the token had simply expired, then the login page shows no such message', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderApp('/admin/dashboard', { token: makeToken(superAdmin._id, -60) });
    expect(await screen.findByRole('heading', { name: 'Admin Portal' })).toBeInTheDocument();
    expect(screen.queryByText(ENDED)).not.toBeInTheDocument();
    expect(screen.queryByText(EVERYWHERE)).not.toBeInTheDocument();
  });

  it('when this device signs out everywhere, then the login page says every session, this one included, was signed out', async () => {
    server.use(
      http.get('/api/auth/mfa', () =>
        answer('/api/auth/mfa', 'get', {
          totp: null,
          passkeys: [],
          recoveryCodesLeft: 0,
          required: false,
          reauthentication: { methods: ['password'], until: null },
        }),
      ),
      http.get('/api/admin/security-settings', () =>
        answer('/api/admin/security-settings', 'get', { mfaRequired: false }),
      ),
      http.get('/api/auth/sessions', () => answer('/api/auth/sessions', 'get', { sessions: [] })),
      http.delete('/api/auth/sessions', ({ response }) => {
        db.sessions.clear();
        return response(204).empty();
      }),
    );
    const { user, router } = renderApp('/admin/security', { token: openSession(superAdmin._id) });
    await user.click(await screen.findByRole('button', { name: 'Sign out everywhere' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Sign out everywhere' })).getByRole('button', {
        name: 'Sign out everywhere',
      }),
    );

    expect(await screen.findByRole('heading', { name: 'Admin Portal' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/login');
    expect(await screen.findByText(EVERYWHERE)).toBeInTheDocument();
    expect(screen.queryByText(ENDED)).not.toBeInTheDocument();
  });

  it.each([
    [
      'session_max_age',
      'Your session has reached its maximum length. Please sign in again.',
      'You were signed out because your session reached the longest time allowed. Please sign in again.',
    ],
    [
      'sign_in_method_off',
      'The way you signed in is no longer allowed for your account. Please sign in again.',
      'You were signed out because password and passkey sign-in are now turned off for your account. Sign in with your institution’s account instead.',
    ],
  ])(
    'when a stricter setting refuses the session (%s) while the admin works, then the login page gives that reason',
    async (code, message, note) => {
      const token = openSession(superAdmin._id);
      const { user, router } = renderApp('/admin/admins', { token });
      await screen.findByRole('table', { name: 'Administrators' });
      // A restart with the stricter setting: every call of this session (the admins screen's) is refused from now on.
      const refused = () => refusal(401, { code, message });
      server.use(
        http.get('/api/auth/me', refused),
        http.post('/api/auth/refresh', refused),
        http.get('/api/admin/admins', refused),
        http.put('/api/admin/admins/{id}', refused),
      );
      await saveAnAdmin(user);

      expect(await screen.findByRole('heading', { name: 'Admin Portal' })).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/admin/login');
      expect(screen.getByRole('status')).toHaveTextContent(note);
      expect(screen.queryByText(ENDED)).not.toBeInTheDocument();
    },
  );

  it('when the app opens with a token a stricter setting refuses, then the login page gives that reason', async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    server.use(
      http.get('/api/auth/me', () =>
        refusal(401, {
          code: 'session_max_age',
          message: 'Your session has reached its maximum length. Please sign in again.',
        }),
      ),
    );
    renderApp('/admin/dashboard', { token: openSession(superAdmin._id) });
    expect(
      await screen.findByText(
        'You were signed out because your session reached the longest time allowed. Please sign in again.',
      ),
    ).toBeInTheDocument();
  });

  it('when a disabled admin signs in with the right password, then they are told the account is disabled; a wrong password is told nothing more', async () => {
    const { user } = renderApp('/admin/login');
    await screen.findByRole('heading', { name: 'Admin Portal' });
    await signIn(user, 'ada@example.edu', 'not-the-password');
    expect(await screen.findByText('Invalid email or password')).toBeInTheDocument();
    expect(screen.queryByText(ACCOUNT_DISABLED_MESSAGE)).not.toBeInTheDocument();

    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText(ACCOUNT_DISABLED_MESSAGE)).toBeInTheDocument();
  });
});
