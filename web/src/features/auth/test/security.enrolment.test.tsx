import { screen, waitFor, within } from '@testing-library/react';
import { answer, refusal } from '../../../testing/answer';
import { http } from '../../../testing/openapi-http';
import { regularAdmin, superAdmin } from '../../../testing/fixtures';
import { saveBlob } from '../../../lib/save-file';
import { renderApp } from '../../../testing/render';
import { openSession, server } from '../../../testing/server';

jest.mock('../../../lib/save-file', () => ({
  ...jest.requireActual<object>('../../../lib/save-file'),
  saveBlob: jest.fn(),
}));

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const CODES = Array.from({ length: 10 }, (_, i) => `abcd-efgh-ij${i}k`);

/** The own second factor as the server keeps it: off until a first code confirms the app. */
function withAuthenticator() {
  let enabled = false;
  server.use(
    http.get('/api/auth/mfa', () =>
      answer('/api/auth/mfa', 'get', {
        totp: enabled ? { enabledAt: '2026-11-25T10:00:00.000Z' } : null,
        passkeys: [],
        recoveryCodesLeft: enabled ? 10 : 0,
        required: false,
        reauthentication: { methods: ['password'], until: '2026-11-25T10:05:00.000Z' },
      }),
    ),
    http.post('/api/auth/mfa/totp', () =>
      answer('/api/auth/mfa/totp', 'post', {
        secret: SECRET,
        otpauthUrl: `otpauth://totp/Readiness:x?secret=${SECRET}`,
        qrCode: 'data:image/svg+xml;base64,PHN2Zy8+',
      }),
    ),
    http.post('/api/auth/mfa/totp/confirm', async ({ request }) => {
      const { code } = (await request.json()) as { code: string };
      if (code !== '654321') {
        return refusal(400, {
          message: 'The code is not valid. Check your authenticator app and try again.',
          code: 'invalid_code',
        });
      }
      enabled = true;
      return answer('/api/auth/mfa/totp/confirm', 'post', { recoveryCodes: CODES });
    }),
    http.get('/api/admin/security-settings', () =>
      answer('/api/admin/security-settings', 'get', { mfaRequired: false }),
    ),
  );
}

/** The policy saves that reach the server, in order (each answered as saved). */
function recordPolicySaves(): boolean[] {
  const saved: boolean[] = [];
  server.use(
    http.put('/api/admin/security-settings', async ({ request }) => {
      const body = (await request.json()) as { mfaRequired: boolean };
      saved.push(body.mfaRequired);
      return answer('/api/admin/security-settings', 'put', body);
    }),
  );
  return saved;
}

describe('Security page', () => {
  it('when an admin sets up an authenticator app, then the key shows written out, a wrong code is refused at the field, and the recovery codes show once', async () => {
    withAuthenticator();
    const { user } = renderApp('/admin/security', { token: openSession(regularAdmin._id) });
    await user.click(await screen.findByRole('button', { name: 'Set up authenticator app' }));
    expect(await screen.findByRole('img', { name: /QR code/ })).toHaveAttribute(
      'src',
      expect.stringMatching(/^data:/),
    );
    expect(screen.getByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Authentication code'), '111111');
    await user.click(screen.getByRole('button', { name: 'Verify and turn on' }));
    expect(
      await screen.findByText('The code is not valid. Check your authenticator app and try again.'),
    ).toBeInTheDocument();

    await user.clear(screen.getByLabelText('Authentication code'));
    await user.type(screen.getByLabelText('Authentication code'), '654321');
    await user.click(screen.getByRole('button', { name: 'Verify and turn on' }));
    const codes = await screen.findByRole('region', { name: 'Your recovery codes' });
    expect(
      within(codes)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(CODES);
    // Downloaded as a text file: what the codes are, then one a line.
    await user.click(within(codes).getByRole('button', { name: 'Download codes' }));
    expect(saveBlob).toHaveBeenCalledWith(expect.any(Blob), 'readiness-recovery-codes.txt');
    const file = jest.mocked(saveBlob).mock.calls[0]![0];
    expect(file.type).toBe('text/plain;charset=utf-8');
    const text = await file.text();
    expect(text).toMatch(/^Readiness recovery codes for localhost\b/);
    expect(text.trim().split('\n').slice(-10)).toEqual(CODES);

    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(await screen.findByText('10 recovery codes left.')).toBeInTheDocument();
    expect(screen.queryByText(CODES[0]!)).not.toBeInTheDocument();
    // A regular admin sees no policy for everyone.
    expect(
      screen.queryByLabelText('Require two-factor authentication for every admin'),
    ).not.toBeInTheDocument();
  });

  it('when a super admin ticks the policy, then it is asked first, saved for every admin on confirming, and a toast says so', async () => {
    withAuthenticator();
    const saved = recordPolicySaves();
    const { user } = renderApp('/admin/security', { token: openSession(superAdmin._id) });
    const policy = await screen.findByLabelText('Require two-factor authentication for every admin');

    await user.click(policy);
    let dialog = screen.getByRole('dialog', { name: 'Require two-factor authentication' });
    expect(dialog).toHaveTextContent(
      'Admins without an authenticator app or a passkey must set one up at their next sign-in',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(saved).toEqual([]);
    expect(policy).not.toBeChecked();

    await user.click(policy);
    dialog = screen.getByRole('dialog', { name: 'Require two-factor authentication' });
    await user.click(within(dialog).getByRole('button', { name: 'Require for every admin' }));
    expect(
      await screen.findByText('Two-factor authentication is now required for every admin'),
    ).toBeInTheDocument();
    expect(saved).toEqual([true]);
  });

  it('when a super admin unticks the policy, then it is saved at once and a toast says so', async () => {
    withAuthenticator();
    server.use(
      http.get('/api/admin/security-settings', () =>
        answer('/api/admin/security-settings', 'get', { mfaRequired: true }),
      ),
    );
    const saved = recordPolicySaves();
    const { user } = renderApp('/admin/security', { token: openSession(superAdmin._id) });
    const policy = await screen.findByLabelText('Require two-factor authentication for every admin');
    await waitFor(() => expect(policy).toBeChecked());
    await user.click(policy);
    expect(await screen.findByText('Two-factor authentication is no longer required')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(saved).toEqual([false]);
  });
});
