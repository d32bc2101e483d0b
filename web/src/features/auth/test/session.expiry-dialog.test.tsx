import { screen, waitFor } from '@testing-library/react';
import { answer, refusal } from '../../../testing/answer';
import { http } from '../../../testing/openapi-http';
import { TOKEN_STORAGE_KEY } from '../../../lib/session-token';
import { superAdmin } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/render';
import { db, server } from '../../../testing/server';

const storedToken = () => window.localStorage.getItem(TOKEN_STORAGE_KEY);
let refreshes = 0;

/** A token of a five-minute session (an idle limit: nothing renews it behind the admin's back) with `left` seconds left. */
function shortSession(left: number): string {
  const encode = (value: object) => btoa(JSON.stringify(value)).replace(/=+$/, '');
  const now = Math.floor(Date.now() / 1000);
  const token = `${encode({ alg: 'RS256' })}.${encode({ sub: superAdmin._id, iat: now + left - 300, exp: now + left })}.sig`;
  db.sessions.set(token, superAdmin._id);
  return token;
}

/**
 * The page's own calls renew a token this close to its end, so renewals answer tokens of the same short
 * session, with what `left()` says is left.
 */
function renewalsLeave(left: () => number) {
  refreshes = 0;
  server.use(
    http.post('/api/auth/refresh', () => {
      refreshes += 1;
      return answer('/api/auth/refresh', 'post', { token: shortSession(left()) });
    }),
  );
}

describe('Session expiry dialog', () => {
  it('when the session ends within two minutes, then the dialog says when, and one key press keeps the admin signed in', async () => {
    let extended = false;
    renewalsLeave(() => (extended ? 250 : 100));
    const token = shortSession(100);
    const { user, router } = renderApp('/admin/dashboard', { token });
    const dialog = await screen.findByRole('dialog', { name: 'Your session is about to end' });
    expect(dialog).toHaveTextContent(/you will be signed out at \d{1,2}:\d{2}\s[AP]M/);
    const stay = screen.getByRole('button', { name: 'Stay signed in' });
    await waitFor(() => expect(stay).toHaveFocus());
    const before = refreshes;
    const shownToken = storedToken();

    extended = true;
    await user.keyboard('{Enter}');

    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Your session is about to end' })).not.toBeInTheDocument(),
    );
    expect(refreshes).toBe(before + 1);
    expect(storedToken()).not.toBe(shownToken);
    expect(router.state.location.pathname).toBe('/admin/dashboard');
  });

  it('when the session has reached its maximum age, then the dialog says it cannot be extended and when it ends', async () => {
    server.use(
      http.post('/api/auth/refresh', () =>
        refusal(401, { message: 'Your session has ended. Please sign in again.', code: 'session_expired' }),
      ),
    );
    const token = shortSession(100);
    renderApp('/admin/dashboard', { token });

    // The page's first call found that its session cannot be extended.
    const final = await screen.findByRole('dialog', { name: 'Your session cannot be extended' });
    expect(final).toHaveTextContent(/Your session ends at \d{1,2}:\d{2}\s[AP]M/);
    await waitFor(() => expect(screen.getByRole('button', { name: 'OK' })).toHaveFocus());
    // Still signed in until the end: the token stays.
    expect(storedToken()).toBe(token);
  });

  it('when the session ends more than two minutes from now, then no dialog shows', async () => {
    renewalsLeave(() => 200);
    renderApp('/admin/dashboard', { token: shortSession(200) });
    await screen.findByRole('heading', { level: 1, name: 'Dashboard' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
