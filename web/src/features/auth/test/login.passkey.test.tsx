import { screen } from '@testing-library/react';
import { answer, refusal } from '../../../testing/answer';
import { http } from '../../../testing/openapi-http';
import { renderApp } from '../../../testing/render';
import { db, openSession, PASSWORD, server } from '../../../testing/server';
import { TOKEN_STORAGE_KEY } from '../../../lib/session-token';

// jsdom has no WebAuthn: the browser's side of the ceremony is played here, the rest of the page is real.
const browserWebAuthn = {
  supported: true,
  answer: jest.fn(),
};
jest.mock('@simplewebauthn/browser', () => {
  class WebAuthnError extends Error {
    code = 'ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY';
  }
  return {
    WebAuthnError,
    browserSupportsWebAuthn: () => browserWebAuthn.supported,
    startAuthentication: (...args: unknown[]) => browserWebAuthn.answer(...args),
    startRegistration: jest.fn(),
  };
});

const ANSWER = {
  id: 'cred-1',
  rawId: 'cred-1',
  type: 'public-key',
  clientExtensionResults: {},
  response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' },
};

function grace() {
  return [...db.accounts.values()].find((a) => a.admin.email === 'grace@example.edu')!;
}

function withPasskeyServer() {
  const sent: unknown[] = [];
  server.use(
    http.post('/api/auth/login/passkey/options', () =>
      answer('/api/auth/login/passkey/options', 'post', {
        options: { challenge: 'c-sign-in', rpId: 'localhost' },
      }),
    ),
    http.post('/api/auth/login/passkey', async ({ request }) => {
      sent.push(await request.json());
      return answer('/api/auth/login/passkey', 'post', {
        token: openSession(grace().admin._id),
        admin: grace().admin,
      });
    }),
    http.post('/api/auth/login', () =>
      answer('/api/auth/login', 'post', {
        mfaRequired: true,
        challenge: 'mfa-1',
        enrol: false,
        methods: ['passkey', 'totp'],
      }),
    ),
    http.post('/api/auth/login/mfa/passkey-options', () =>
      answer('/api/auth/login/mfa/passkey-options', 'post', {
        options: { challenge: 'c-second', rpId: 'localhost' },
      }),
    ),
    http.post('/api/auth/login/mfa', async ({ request }) => {
      sent.push(await request.json());
      return answer('/api/auth/login/mfa', 'post', {
        token: openSession(grace().admin._id),
        admin: grace().admin,
      });
    }),
  );
  return sent;
}

beforeEach(() => {
  browserWebAuthn.supported = true;
  browserWebAuthn.answer.mockReset();
});

describe('Login with a passkey', () => {
  it('when the passkey answers, then the admin is signed in without a password', async () => {
    const sent = withPasskeyServer();
    browserWebAuthn.answer.mockResolvedValue(ANSWER);
    const { user, router } = renderApp('/admin/login');
    await user.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/dashboard');
    expect(browserWebAuthn.answer).toHaveBeenCalledWith(
      expect.objectContaining({ optionsJSON: expect.objectContaining({ challenge: 'c-sign-in' }) }),
    );
    expect(sent).toEqual([{ passkey: ANSWER }]);
  });

  it('when the person cancels the passkey prompt, then the page says so and nothing is sent', async () => {
    const sent = withPasskeyServer();
    browserWebAuthn.answer.mockRejectedValue(Object.assign(new Error('denied'), { name: 'NotAllowedError' }));
    const { user } = renderApp('/admin/login');
    await user.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByText('The passkey request was cancelled or timed out.')).toBeInTheDocument();
    expect(sent).toEqual([]);
    expect(window.localStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
  });

  it('when the server does not know the passkey, then its message shows', async () => {
    withPasskeyServer();
    server.use(
      http.post('/api/auth/login/passkey', () =>
        refusal(401, {
          message: 'This passkey is not registered with Readiness. Sign in with your email and password.',
          code: 'passkey_not_verified',
        }),
      ),
    );
    browserWebAuthn.answer.mockResolvedValue(ANSWER);
    const { user } = renderApp('/admin/login');
    await user.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
    expect(
      await screen.findByText(
        'This passkey is not registered with Readiness. Sign in with your email and password.',
      ),
    ).toBeInTheDocument();
  });

  it('when the browser cannot use passkeys, then the button is not offered', async () => {
    browserWebAuthn.supported = false;
    renderApp('/admin/login');
    await screen.findByRole('heading', { name: 'Admin Portal' });
    expect(screen.queryByRole('button', { name: 'Sign in with a passkey' })).not.toBeInTheDocument();
  });

  it('when an admin with a passkey and an app gives the password, then the passkey is asked first and the app is the other way', async () => {
    const sent = withPasskeyServer();
    browserWebAuthn.answer.mockResolvedValue(ANSWER);
    const { user } = renderApp('/admin/login');
    await screen.findByRole('heading', { name: 'Admin Portal' });
    await user.type(screen.getByLabelText('Email'), 'grace@example.edu');
    await user.type(screen.getByLabelText('Password'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(
      await screen.findByText('Use the passkey on this device, your phone or your security key.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Use your authenticator app instead' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Use a recovery code instead' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Use passkey' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeInTheDocument();
    expect(sent).toEqual([{ challenge: 'mfa-1', passkey: ANSWER }]);
  });
});
