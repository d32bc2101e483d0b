import { screen } from '@testing-library/react';
import { timestampFromDate } from '@readiness/contracts';
import { resultRecorded } from '@readiness/testing/fixtures';
import { http } from '../../../testing/openapi-http';
import { answer, refusal } from '../../../testing/answer';
import { renderStudentApp } from '../../../testing/render-student';
import { server } from '../../../testing/server';
import { certificateOf } from '../../../testing/seeded';

const certified = resultRecorded({ completedAt: timestampFromDate(new Date('2026-11-20T10:30:00.000Z')) });
const GENUINE = 'eyJhbGciOiJSUzI1NiJ9.genuine.signature';
const REVOKED = 'eyJhbGciOiJSUzI1NiJ9.revoked.signature';

const checked: Array<{ credential: string; authorization: string | null }> = [];

beforeEach(() => {
  checked.length = 0;
  server.use(
    http.get('/api/certificates/{code}', ({ params }) =>
      params.code === certified.assessmentCode
        ? answer('/api/certificates/{code}', 'get', certificateOf(certified))
        : refusal(404, { message: 'No certificate has this code', code: 'not_found' }),
    ),
    http.post('/api/verify/credential', async ({ request }) => {
      const { credential } = (await request.json()) as { credential: string };
      checked.push({ credential, authorization: request.headers.get('authorization') });
      const { name, assessmentTitle, percentage, issuedAt } = certificateOf(certified);
      if (credential === GENUINE) {
        return answer('/api/verify/credential', 'post', {
          status: 'genuine',
          code: certified.assessmentCode,
          name,
          assessmentTitle,
          percentage,
          issuedAt,
        });
      }
      if (credential === REVOKED) {
        return answer('/api/verify/credential', 'post', {
          status: 'revoked',
          code: certified.assessmentCode,
        });
      }
      return answer('/api/verify/credential', 'post', { status: 'altered' });
    }),
  );
});

describe('Check a credential on the verification page', () => {
  it('when a genuine, a revoked and an altered credential are pasted in turn, then each is said so, without any token', async () => {
    const { user } = renderStudentApp('/verify');
    const field = await screen.findByLabelText('Credential');
    const check = screen.getByRole('button', { name: 'Check credential' });

    await user.click(check);
    expect(await screen.findByText('Paste a credential')).toBeInTheDocument();

    await user.type(field, GENUINE);
    await user.click(check);
    expect(await screen.findByText(/^Genuine: issued to/)).toHaveTextContent(
      `Genuine: issued to ${certified.name} on Nov 20, 2026 for ${certified.assessmentTitle}.`,
    );

    await user.clear(field);
    await user.type(field, REVOKED);
    await user.click(check);
    expect(await screen.findByText(/^Revoked:/)).toBeInTheDocument();

    await user.clear(field);
    await user.type(field, `${GENUINE}x`);
    await user.click(check);
    expect(await screen.findByText(/^Not genuine:/)).toBeInTheDocument();
    expect(checked.map((c) => c.authorization)).toEqual([null, null, null]);
  });

  it('when a certificate verifies, then its Open Badge is offered for download by its code', async () => {
    renderStudentApp(`/verify/${certified.assessmentCode}`);
    const link = await screen.findByRole('link', { name: 'Download Open Badge' });
    expect(new URL(link.getAttribute('href')!).pathname).toBe(
      `/api/verify/${certified.assessmentCode}/credential`,
    );
    expect(link).toHaveAttribute('download');
  });
});
