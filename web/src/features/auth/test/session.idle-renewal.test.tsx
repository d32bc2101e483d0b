import { act, screen, waitFor } from '@testing-library/react';
import { REFRESH_WINDOW_MS } from '../../../lib/api';
import { TOKEN_STORAGE_KEY } from '../../../lib/session-token';
import { superAdmin } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/render';
import { db, openSession } from '../../../testing/server';

const storedToken = () => window.localStorage.getItem(TOKEN_STORAGE_KEY);
const refreshes = () => db.requests.filter((r) => r.path === '/api/auth/refresh').length;

// A few seconds past the renewal window: the page's own calls (made at once) find nothing to renew,
// and only the timer can, those few seconds later. The margin leaves room for a slow, busy machine.
const JUST_OUTSIDE_WINDOW_S = REFRESH_WINDOW_MS / 1000 + 4;

async function openDashboard(token: string) {
  const app = renderApp('/admin/dashboard', { token });
  await screen.findByRole('heading', { level: 1, name: 'Dashboard' });
  return app;
}

describe('Idle session renewal', () => {
  afterEach(() => jest.restoreAllMocks());

  it('when the tab sits idle until the token nears expiry, then it is renewed without any action and the admin stays signed in', async () => {
    const oldToken = openSession(superAdmin._id, JUST_OUTSIDE_WINDOW_S);
    const { router } = await openDashboard(oldToken);
    expect(refreshes()).toBe(0);
    const callsBefore = db.requests.length;

    await waitFor(() => expect(refreshes()).toBe(1), { timeout: 10_000 });
    await waitFor(() => expect(storedToken()).not.toBe(oldToken));
    expect(db.sessions.has(storedToken()!)).toBe(true);
    expect(db.sessions.has(oldToken)).toBe(false);
    // The renewal was the only call made: nothing else woke the session up.
    expect(db.requests.slice(callsBefore).map((r) => r.path)).toEqual(['/api/auth/refresh']);
    expect(router.state.location.pathname).toBe('/admin/dashboard');
  });

  it('when the server refuses the idle renewal, then the admin is signed out to login', async () => {
    const token = openSession(superAdmin._id, JUST_OUTSIDE_WINDOW_S);
    const { router } = await openDashboard(token);
    db.sessions.delete(token); // revoked elsewhere, e.g. the account was disabled

    expect(
      await screen.findByRole('heading', { name: 'Admin Portal' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/login');
    expect(storedToken()).toBeNull();
  });

  it('when the admin returns to the tab with the token inside the window, then it is renewed at once', async () => {
    const oldToken = openSession(superAdmin._id, 60 * 60);
    await openDashboard(oldToken);
    expect(refreshes()).toBe(0);

    // The timer is set for 50 minutes from now; the tab slept through it and wakes 55 minutes on.
    const realNow = Date.now.bind(Date);
    jest.spyOn(Date, 'now').mockImplementation(() => realNow() + 55 * 60 * 1000);
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });

    await waitFor(() => expect(refreshes()).toBe(1));
    await waitFor(() => expect(storedToken()).not.toBe(oldToken));
    expect(db.sessions.has(storedToken()!)).toBe(true);
  });

  it('when the admin returns to the tab long before expiry, then nothing is renewed', async () => {
    await openDashboard(openSession(superAdmin._id, 60 * 60));
    act(() => {
      window.dispatchEvent(new Event('focus'));
      document.dispatchEvent(new Event('visibilitychange'));
    });
    // A call made after the focus event answers after any renewal it could have started.
    await act(async () => {
      await fetch(new URL('/api/auth/me', window.location.origin), {
        headers: { Authorization: `Bearer ${storedToken()}` },
      });
    });
    expect(refreshes()).toBe(0);
  });
});
