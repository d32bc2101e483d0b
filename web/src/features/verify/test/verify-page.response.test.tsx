import { screen, within } from '@testing-library/react';
import { timestampFromDate } from '@readiness/contracts';
import { resultRecorded } from '@readiness/testing/fixtures';
import { http } from '../../../testing/openapi-http';
import { answer, outage, refusal } from '../../../testing/answer';
import { renderStudentApp } from '../../../testing/render-student';
import { server } from '../../../testing/server';
import { certificateOf } from '../../../testing/seeded';

/** The fixtures' passed result, its certificate issued on 20 November 2026. */
const certified = resultRecorded({ completedAt: timestampFromDate(new Date('2026-11-20T10:30:00.000Z')) });

const requests: { path: string; authorization: string | null }[] = [];

beforeEach(() => {
  requests.length = 0;
  server.use(
    http.get('/api/certificates/{code}', ({ params, request, response }) => {
      requests.push({
        path: new URL(request.url).pathname,
        authorization: request.headers.get('authorization'),
      });
      if (params.code === certified.assessmentCode) {
        return answer('/api/certificates/{code}', 'get', certificateOf(certified));
      }
      if (params.code === 'RDY-DOWN-0000')
        return response.untyped(outage(500, { message: 'x', code: 'internal' }));
      return refusal(404, { message: 'No certificate has this code', code: 'not_found' });
    }),
  );
});

describe('certificate verification page', () => {
  it('when the code belongs to a certificate, then it says Valid certificate with the name and the date', async () => {
    renderStudentApp('/verify/RDY-7K3F-92QX');
    expect(await screen.findByRole('heading', { level: 1, name: 'Valid certificate' })).toBeInTheDocument();
    expect(screen.getByText(certified.name)).toBeInTheDocument();
    expect(screen.getByText('Nov 20, 2026')).toBeInTheDocument();
    expect(screen.getByText(certified.assessmentTitle)).toBeInTheDocument();
    expect(screen.getByText(`${certified.percentage}%`)).toBeInTheDocument();
    expect(requests).toEqual([{ path: '/api/certificates/RDY-7K3F-92QX', authorization: null }]);
  });

  it('when the certificate is valid, then the name stands in its own isolate, apart from the date after it', async () => {
    renderStudentApp('/verify/RDY-7K3F-92QX');
    const name = await screen.findByText(certified.name);
    const isolate = name.closest('bdi, [dir="auto"]');
    expect(isolate).toHaveTextContent(new RegExp(`^${certified.name}$`));
    expect(isolate).not.toContainElement(screen.getByText('Nov 20, 2026'));
  });

  it('when no certificate has the code, then it says so', async () => {
    renderStudentApp('/verify/RDY-0000-0000');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'No certificate has this code' }),
    ).toBeInTheDocument();
    expect(screen.queryByText('Valid certificate')).not.toBeInTheDocument();
  });

  it.each([
    ['no certificate has the code', '/verify/RDY-0000-0000', 'No certificate has this code'],
    ['the code belongs to a certificate', '/verify/RDY-7K3F-92QX', 'Valid certificate'],
  ])(
    'when %s, then a field checks another code on the spot, refusing an empty one',
    async (_, path, title) => {
      const { documentNavigation } = await import('../../../lib/document-navigation');
      const replace = jest.spyOn(documentNavigation, 'replace').mockImplementation(() => undefined);
      const { user } = renderStudentApp(path);
      expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
      const another = screen.getByRole('heading', { level: 2, name: 'Check another code' }).parentElement!;
      await user.click(within(another).getByRole('button', { name: 'Verify' }));
      expect(
        within(another).getByText('Enter the verification code printed on the certificate'),
      ).toBeInTheDocument();

      const next = path.endsWith('92QX') ? 'RDY-1111-2222' : 'RDY-7K3F-92QX';
      await user.type(within(another).getByLabelText('Verification code'), ` ${next} `);
      await user.click(within(another).getByRole('button', { name: 'Verify' }));
      const nextTitle = next === 'RDY-7K3F-92QX' ? 'Valid certificate' : 'No certificate has this code';
      expect(await screen.findByRole('heading', { level: 1, name: nextTitle })).toBeInTheDocument();
      expect(requests.map((r) => r.path)).toEqual([
        `/api/certificates/${path.slice(8)}`,
        `/api/certificates/${next}`,
      ]);
      // The field is there again, empty, for a third code; the page never reloaded.
      expect(screen.getByLabelText('Verification code')).toHaveValue('');
      expect(replace).not.toHaveBeenCalled();
      replace.mockRestore();
    },
  );

  it('when the check fails, then it says so and offers to try again', async () => {
    renderStudentApp('/verify/RDY-DOWN-0000');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'The certificate could not be checked' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});

describe('verification without a code', () => {
  it.each(['/verify', '/verify/'])(
    'when %s is opened, then it shows a code field, stays on the page, and the field opens the code',
    async (path) => {
      const { documentNavigation } = await import('../../../lib/document-navigation');
      const replace = jest.spyOn(documentNavigation, 'replace').mockImplementation(() => undefined);
      const { user } = renderStudentApp(path);
      expect(
        await screen.findByRole('heading', { level: 1, name: 'Verify a certificate' }),
      ).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Verify' }));
      expect(screen.getByText('Enter the verification code printed on the certificate')).toBeInTheDocument();
      await user.type(screen.getByLabelText('Verification code'), ' RDY-7K3F-92QX ');
      await user.click(screen.getByRole('button', { name: 'Verify' }));
      expect(await screen.findByRole('heading', { level: 1, name: 'Valid certificate' })).toBeInTheDocument();
      expect(replace).not.toHaveBeenCalled();
      replace.mockRestore();
    },
  );

  it.each(['/verify/a/b', '/verify/RDY-7K3F-92QX/extra'])(
    'when %s is opened, then it says no certificate has this code with a code field, and never reloads',
    async (path) => {
      const { documentNavigation } = await import('../../../lib/document-navigation');
      const replace = jest.spyOn(documentNavigation, 'replace').mockImplementation(() => undefined);
      renderStudentApp(path);
      expect(
        await screen.findByRole('heading', { level: 1, name: 'No certificate has this code' }),
      ).toBeInTheDocument();
      expect(screen.getByLabelText('Verification code')).toBeInTheDocument();
      expect(replace).not.toHaveBeenCalled();
      expect(requests).toEqual([]);
      replace.mockRestore();
    },
  );
});
