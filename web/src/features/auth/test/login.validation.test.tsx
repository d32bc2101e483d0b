import { screen } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { http } from '../../../testing/openapi-http';
import { renderApp } from '../../../testing/render';
import { db, PASSWORD, server } from '../../../testing/server';
import { TOKEN_STORAGE_KEY } from '../../../lib/session-token';

async function openLogin() {
  const app = renderApp('/admin/login');
  await screen.findByRole('heading', { name: 'Admin Portal' });
  return app;
}

describe('Login screen', () => {
  it('when the form is sent empty, then both required messages show and nothing is sent', async () => {
    const { user } = await openLogin();
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(db.requests.filter((r) => r.path === '/api/auth/login')).toHaveLength(0);
  });

  it('when the e-mail is malformed and the password short, then the pattern and length messages show', async () => {
    const { user } = await openLogin();
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.type(screen.getByLabelText('Password'), '12345');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Invalid email address')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument();
  });

  it('when the eye button is pressed, then the password shows, and hides again on the second press', async () => {
    const { user } = await openLogin();
    const password = screen.getByLabelText('Password');
    expect(password).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password).toHaveAttribute('type', 'password');
  });

  it('when the page opens, then the light medium logo and the internal-use footer show', async () => {
    await openLogin();
    const logo = screen.getByRole('img', { name: 'Readiness' });
    expect(logo).toHaveAttribute('data-variant', 'light');
    expect(logo).toHaveAttribute('width', '120');
    expect(screen.getByText(/internal system/i)).toHaveTextContent(/authorized access only/i);
  });

  it('when the credentials are right, then the welcome toast shows, the token is kept and the dashboard opens', async () => {
    const { user, router } = await openLogin();
    await user.type(screen.getByLabelText('Email'), 'grace@example.edu');
    await user.type(screen.getByLabelText('Password'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Welcome back, Grace Hopper!')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/dashboard');
    expect(window.localStorage.getItem(TOKEN_STORAGE_KEY)).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it('when the server refuses the credentials, then its message shows and the user stays signed out', async () => {
    const { user, router } = await openLogin();
    await user.type(screen.getByLabelText('Email'), 'grace@example.edu');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Invalid email or password')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/login');
    expect(window.localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
  });

  it('when the refusal carries no message, then "Login failed" shows', async () => {
    server.use(
      http.post('/api/auth/login', ({ response }) =>
        // Deliberately malformed: a refusal without the declared `message` and `code`.
        response.untyped(HttpResponse.json({}, { status: 429 })),
      ),
    );
    const { user } = await openLogin();
    await user.type(screen.getByLabelText('Email'), 'grace@example.edu');
    await user.type(screen.getByLabelText('Password'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Login failed')).toBeInTheDocument();
  });

  it('when the request cannot reach the server, then "An unexpected error occurred" shows', async () => {
    server.use(http.post('/api/auth/login', () => HttpResponse.error()));
    const { user } = await openLogin();
    await user.type(screen.getByLabelText('Email'), 'grace@example.edu');
    await user.type(screen.getByLabelText('Password'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('An unexpected error occurred')).toBeInTheDocument();
  });
});
