import { screen, within } from '@testing-library/react';
import { answer, refusal } from '../../../testing/answer';
import { http } from '../../../testing/openapi-http';
import { regularAdmin } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/render';
import { openSession, server } from '../../../testing/server';

// jsdom has no WebAuthn: the browser's side of the ceremony is played here, the rest of the page is real.
const browserWebAuthn = { supported: true, create: jest.fn() };
jest.mock('@simplewebauthn/browser', () => {
  class WebAuthnError extends Error {
    constructor(
      message: string,
      readonly code: string,
    ) {
      super(message);
    }
  }
  return {
    WebAuthnError,
    browserSupportsWebAuthn: () => browserWebAuthn.supported,
    startAuthentication: jest.fn(),
    startRegistration: (...args: unknown[]) => browserWebAuthn.create(...args),
  };
});

const CREATED = {
  id: 'cred-1',
  rawId: 'cred-1',
  type: 'public-key',
  clientExtensionResults: {},
  response: { clientDataJSON: 'e30', attestationObject: 'AA', transports: ['internal'] },
};
const CODES = Array.from({ length: 10 }, (_, i) => `abcd-efgh-ij${i}k`);

interface Listed {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  synced: boolean;
}

/** The admin's passkeys as the server keeps them; answers what the page sent. */
function withPasskeys(initial: Listed[] = []) {
  const passkeys = [...initial];
  const sent: unknown[] = [];
  server.use(
    http.get('/api/auth/mfa', () =>
      answer('/api/auth/mfa', 'get', {
        totp: null,
        passkeys,
        recoveryCodesLeft: passkeys.length ? 10 : 0,
        required: false,
        reauthentication: { methods: ['password'], until: '2026-11-25T10:05:00.000Z' },
      }),
    ),
    http.get('/api/admin/security-settings', () =>
      answer('/api/admin/security-settings', 'get', { mfaRequired: false }),
    ),
    http.post('/api/auth/mfa/passkeys/options', () =>
      answer('/api/auth/mfa/passkeys/options', 'post', {
        options: { challenge: 'c-register', rp: { id: 'localhost', name: 'Readiness' } },
      }),
    ),
    http.post('/api/auth/mfa/passkeys', async ({ request }) => {
      const body = (await request.json()) as { name: string };
      sent.push(body);
      const added = {
        id: `p-${passkeys.length + 1}`,
        name: body.name,
        createdAt: '2026-11-27T10:00:00.000Z',
        lastUsedAt: null,
        synced: false,
      };
      const first = passkeys.length === 0;
      passkeys.push(added);
      return answer(
        '/api/auth/mfa/passkeys',
        'post',
        { passkey: added, ...(first ? { recoveryCodes: CODES } : {}) },
        { status: 201 },
      );
    }),
    http.delete('/api/auth/mfa/passkeys/{id}', ({ params, response }) => {
      const at = passkeys.findIndex((p) => p.id === params.id);
      if (at < 0) return refusal(404, { message: 'Passkey not found', code: 'not_found' });
      passkeys.splice(at, 1);
      return response(204).empty();
    }),
  );
  return sent;
}

beforeEach(() => {
  browserWebAuthn.supported = true;
  browserWebAuthn.create.mockReset();
});

describe('Security page, passkeys', () => {
  it('when an admin adds a first passkey, then the name is required, the new passkey is listed and the recovery codes show once', async () => {
    const sent = withPasskeys();
    browserWebAuthn.create.mockResolvedValue(CREATED);
    const { user } = renderApp('/admin/security', { token: openSession(regularAdmin._id) });
    expect(await screen.findByText('No passkeys yet')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add a passkey' }));
    await user.click(screen.getByRole('button', { name: 'Create passkey' }));
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(browserWebAuthn.create).not.toHaveBeenCalled();

    await user.type(screen.getByLabelText('Passkey name'), 'Work laptop');
    await user.click(screen.getByRole('button', { name: 'Create passkey' }));
    expect(await screen.findByRole('heading', { name: 'Your recovery codes' })).toBeInTheDocument();
    expect(browserWebAuthn.create).toHaveBeenCalledWith(
      expect.objectContaining({ optionsJSON: expect.objectContaining({ challenge: 'c-register' }) }),
    );
    expect(sent).toEqual([{ name: 'Work laptop', passkey: CREATED }]);
    await user.click(screen.getByRole('button', { name: 'Done' }));
    const table = await screen.findByRole('table', { name: 'Your passkeys' });
    expect(within(table).getByText('Work laptop')).toBeInTheDocument();
    expect(within(table).getByText('Never')).toBeInTheDocument();
  });

  it('when the person cancels the browser prompt, then nothing is sent and the page says why', async () => {
    const sent = withPasskeys();
    browserWebAuthn.create.mockRejectedValue(Object.assign(new Error('denied'), { name: 'NotAllowedError' }));
    const { user } = renderApp('/admin/security', { token: openSession(regularAdmin._id) });
    await user.click(await screen.findByRole('button', { name: 'Add a passkey' }));
    await user.type(screen.getByLabelText('Passkey name'), 'Phone');
    await user.click(screen.getByRole('button', { name: 'Create passkey' }));
    expect(await screen.findByText('The passkey request was cancelled or timed out.')).toBeInTheDocument();
    expect(sent).toEqual([]);
  });

  it('when a passkey is removed, then it goes only after the confirmation', async () => {
    withPasskeys([
      { id: 'p-1', name: 'Old phone', createdAt: '2026-11-20T10:00:00.000Z', lastUsedAt: null, synced: true },
    ]);
    const { user } = renderApp('/admin/security', { token: openSession(regularAdmin._id) });
    await user.click(await screen.findByRole('button', { name: 'Remove passkey Old phone' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove passkey' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByText('Old phone')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Remove passkey Old phone' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Remove passkey' })).getByRole('button', {
        name: 'Remove passkey',
      }),
    );
    expect(await screen.findByText("Passkey 'Old phone' removed")).toBeInTheDocument();
    expect(await screen.findByText('No passkeys yet')).toBeInTheDocument();
  });

  it('when the browser cannot make passkeys, then the page says so instead of offering to add one', async () => {
    browserWebAuthn.supported = false;
    withPasskeys();
    renderApp('/admin/security', { token: openSession(regularAdmin._id) });
    expect(await screen.findByText('This browser cannot make passkeys.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add a passkey' })).not.toBeInTheDocument();
  });
});
