import { screen, waitFor } from '@testing-library/react';
import { http } from '../../../testing/openapi-http';
import { renderApp } from '../../../testing/render';
import { answer } from '../../../testing/answer';
import { db, openSession, server } from '../../../testing/server';
import { TOKEN_STORAGE_KEY } from '../../../lib/session-token';

const grace = () => [...db.accounts.values()].find((a) => a.admin.email === 'grace@example.edu')!.admin;

function offerSingleSignOn(passwordSignIn: 'everyone' | 'super-admins' = 'everyone') {
  server.use(
    http.get('/api/auth/sign-in-options', () =>
      answer('/api/auth/sign-in-options', 'get', {
        singleSignOn: { name: 'Test University' },
        passwordSignIn,
      }),
    ),
  );
}

describe('Login screen with single sign-on', () => {
  it('when the provider is configured, then its button starts a sign-in that comes back to the asked page', async () => {
    offerSingleSignOn();
    renderApp('/admin/results?page=2');
    const button = await screen.findByRole('link', { name: 'Sign in with Test University' });
    expect(button).toHaveAttribute('href', '/api/auth/oidc/start?returnTo=%2Fadmin%2Fresults%3Fpage%3D2');
    expect(screen.getByText('or use your password')).toBeInTheDocument();
  });

  it('when passwords are for super admins only, then the page says so above the form', async () => {
    offerSingleSignOn('super-admins');
    renderApp('/admin/login');
    expect(await screen.findByText('Super admins: sign in with a password')).toBeInTheDocument();
  });

  it('when no provider is configured, then there is no button', async () => {
    renderApp('/admin/login');
    await screen.findByRole('heading', { name: 'Admin Portal' });
    expect(screen.queryByRole('link', { name: /Sign in with/ })).not.toBeInTheDocument();
  });

  it('when the provider sent the admin back signed in, then the session is taken once and the asked page opens', async () => {
    offerSingleSignOn();
    let taken = 0;
    server.use(
      http.post('/api/auth/oidc/session', () => {
        taken += 1;
        return answer('/api/auth/oidc/session', 'post', {
          token: openSession(grace()._id),
          admin: grace(),
          returnTo: '/admin/students',
          endSessionUrl: 'http://idp.test/session/end?client_id=readiness',
        });
      }),
    );
    const { router } = renderApp('/admin/login?sso=signed-in');
    expect(await screen.findByText('Welcome back, Grace Hopper!')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/students'));
    expect(window.localStorage.getItem(TOKEN_STORAGE_KEY)).toBeTruthy();
    expect(taken).toBe(1);
  });

  it.each([
    [
      'no_account',
      'Your institution signed you in, but no Readiness admin account uses your e-mail address. Ask a super admin to add you.',
    ],
    [
      'unverified',
      'Test University has not verified your e-mail address, so it cannot be matched to an admin account.',
    ],
    ['unavailable', 'Test University cannot be reached right now. Try again later.'],
    ['forged-reason', 'Sign-in with Test University did not complete. Please try again.'],
  ])(
    'when the sign-in was refused (%s), then the reason shows and the address is cleaned',
    async (reason, message) => {
      offerSingleSignOn();
      const { router } = renderApp(`/admin/login?sso_error=${reason}`);
      expect(await screen.findByRole('alert')).toHaveTextContent(message);
      expect(router.state.location.search).toBe('');
      expect(window.localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    },
  );
});
