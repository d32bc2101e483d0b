import { screen } from '@testing-library/react';
import { answer, refusal } from '../../../testing/answer';
import { http } from '../../../testing/openapi-http';
import { renderApp } from '../../../testing/render';
import { db, openSession, PASSWORD, server } from '../../../testing/server';
import { TOKEN_STORAGE_KEY } from '../../../lib/session-token';

const CHALLENGE = 'challenge-1';
const CODE = '123456';
const RECOVERY = 'abcd-efgh-ijkl';

/** Grace has an authenticator app: her password yields a challenge, and the code or a recovery code a session. */
function withSecondFactor({ enrol = false } = {}) {
  const grace = [...db.accounts.values()].find((a) => a.admin.email === 'grace@example.edu')!;
  server.use(
    http.post('/api/auth/login', () =>
      answer('/api/auth/login', 'post', {
        mfaRequired: true,
        challenge: CHALLENGE,
        enrol,
        methods: ['totp'],
      }),
    ),
    http.post('/api/auth/login/mfa/enrolment', () =>
      answer('/api/auth/login/mfa/enrolment', 'post', {
        secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
        otpauthUrl: 'otpauth://totp/Readiness:grace@example.edu?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
        qrCode: 'data:image/svg+xml;base64,PHN2Zy8+',
      }),
    ),
    http.post('/api/auth/login/mfa', async ({ request }) => {
      const body = (await request.json()) as { challenge: string; code?: string; recoveryCode?: string };
      if (body.challenge === CHALLENGE && (body.code === CODE || body.recoveryCode === RECOVERY)) {
        return answer('/api/auth/login/mfa', 'post', {
          token: openSession(grace.admin._id),
          admin: grace.admin,
          ...(enrol ? { recoveryCodes: Array.from({ length: 10 }, (_, i) => `code-${i}`) } : {}),
        });
      }
      return body.code
        ? refusal(401, {
            message: 'The code is not valid. Check your authenticator app and try again.',
            code: 'invalid_code',
          })
        : refusal(401, {
            message: 'The recovery code is not valid or has already been used.',
            code: 'invalid_recovery_code',
          });
    }),
  );
}

async function passwordStep() {
  const app = renderApp('/admin/login');
  await screen.findByRole('heading', { name: 'Admin Portal' });
  await app.user.type(screen.getByLabelText('Email'), 'grace@example.edu');
  await app.user.type(screen.getByLabelText('Password'), PASSWORD);
  await app.user.click(screen.getByRole('button', { name: 'Sign In' }));
  return app;
}

describe('Login with a second factor', () => {
  it('when the password is right, then the code is asked for and no token is kept until a right code', async () => {
    withSecondFactor();
    const { user, router } = await passwordStep();
    expect(
      await screen.findByText('Enter the 6-digit code from your authenticator app.'),
    ).toBeInTheDocument();
    expect(window.localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();

    await user.type(screen.getByLabelText('Authentication code'), '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(
      await screen.findByText('The code is not valid. Check your authenticator app and try again.'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Authentication code')).toHaveAttribute('aria-invalid', 'true');
    expect(window.localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();

    await user.clear(screen.getByLabelText('Authentication code'));
    await user.type(screen.getByLabelText('Authentication code'), CODE);
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/dashboard');
    expect(window.localStorage.getItem(TOKEN_STORAGE_KEY)).not.toBeNull();
  });

  it('when the code is not six digits, then the message shows and nothing is sent', async () => {
    withSecondFactor();
    const { user } = await passwordStep();
    await user.type(await screen.findByLabelText('Authentication code'), '12ab');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Enter the 6-digit code from your authenticator app')).toBeInTheDocument();
    expect(db.requests.filter((r) => r.path === '/api/auth/login/mfa')).toHaveLength(0);
  });

  it('when a recovery code is used instead, then it signs in', async () => {
    withSecondFactor();
    const { user } = await passwordStep();
    await user.click(await screen.findByRole('button', { name: 'Use a recovery code instead' }));
    await user.type(screen.getByLabelText('Recovery code'), RECOVERY);
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
  });

  it('when every admin must enrol, then the key and QR code show, and the recovery codes before the session starts', async () => {
    withSecondFactor({ enrol: true });
    const { user } = await passwordStep();
    expect(await screen.findByRole('img', { name: /QR code/ })).toBeInTheDocument();
    expect(screen.getByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Authentication code'), CODE);
    await user.click(screen.getByRole('button', { name: 'Verify and continue' }));
    expect(await screen.findByRole('heading', { name: 'Your recovery codes' })).toBeInTheDocument();
    expect(screen.getAllByRole('listitem')).toHaveLength(10);
    expect(window.localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
  });
});

describe('Login with a second factor, after too long', () => {
  it('when the challenge has expired, then the message shows and the password is asked again', async () => {
    withSecondFactor();
    server.use(
      http.post('/api/auth/login/mfa', () =>
        refusal(401, {
          message: 'Your sign-in has expired. Please sign in again.',
          code: 'mfa_challenge_expired',
        }),
      ),
    );
    const { user } = await passwordStep();
    await user.type(await screen.findByLabelText('Authentication code'), CODE);
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Your sign-in has expired. Please sign in again.')).toBeInTheDocument();
    expect(await screen.findByLabelText('Password')).toBeInTheDocument();
    expect(screen.queryByLabelText('Authentication code')).not.toBeInTheDocument();
  });
});
