import { screen, waitFor } from '@testing-library/react';
import { HttpResponse } from 'msw';
import { refusal } from '../../../testing/answer';
import { http } from '../../../testing/openapi-http';
import { saveBlob } from '../../../lib/save-file';
import { renderStudentApp } from '../../../testing/render-student';
import { server } from '../../../testing/server';
import { db, makeFailedResult, makeResult, TOKEN, useStudentServer } from './student-server';

jest.mock('../../../lib/save-file', () => ({
  ...jest.requireActual<object>('../../../lib/save-file'),
  saveBlob: jest.fn(),
}));

useStudentServer();

const completePath = `/assessment/${TOKEN}/complete`;
const LINK = 'https://readiness.example/api/certificates/KXT-4QP-9MW/pdf?expires=1900000000&signature=abc';

/** The signed link as the report service serves it, recording each call. */
function certificateServer(status = 200) {
  const calls: Request[] = [];
  server.use(
    http.get('/api/certificates/{code}/pdf', ({ request, response }) => {
      calls.push(request);
      return status === 200
        ? // A PDF, which the declared types do not describe as JSON.
          response.untyped(
            new HttpResponse(new Uint8Array([37, 80, 68, 70]), {
              headers: { 'content-type': 'application/pdf' },
            }),
          )
        : refusal(status, { message: 'Link expired', code: 'link_expired' });
    }),
  );
  return calls;
}

beforeEach(() => {
  jest.mocked(saveBlob).mockClear();
});

describe('Certificate on the completion page', () => {
  it('when the link arrives while the page waits, then Download Certificate appears and saves the file without any Authorization', async () => {
    const calls = certificateServer();
    db.results = [makeResult()];
    const { user } = renderStudentApp(completePath, { state: { result: makeResult() } });
    expect(await screen.findByText(/certificate is being prepared/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Download Certificate' })).not.toBeInTheDocument();

    db.results = [makeResult({ certificateUrl: LINK })];
    const button = await screen.findByRole('button', { name: 'Download Certificate' }, { timeout: 6000 });
    await user.click(button);
    await waitFor(() => expect(saveBlob).toHaveBeenCalledTimes(1));
    expect(jest.mocked(saveBlob).mock.calls[0]![1]).toBe('certificate-Ada Lovelace-ada@example.edu.pdf');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.headers.get('authorization')).toBeNull();
  });

  it('when the link names another name of the site than the page was opened under, then the page asks its own origin for it', async () => {
    const calls = certificateServer();
    // The page runs at http://localhost; the link names the public origin https://readiness.example.
    db.results = [makeResult({ certificateUrl: LINK })];
    const { user } = renderStudentApp(completePath);
    await user.click(await screen.findByRole('button', { name: 'Download Certificate' }));
    await waitFor(() => expect(saveBlob).toHaveBeenCalledTimes(1));
    const asked = new URL(calls[0]!.url);
    expect(asked.origin).toBe(window.location.origin);
    expect(`${asked.pathname}${asked.search}`).toBe(
      '/api/certificates/KXT-4QP-9MW/pdf?expires=1900000000&signature=abc',
    );
  });

  it("when the certificate is there, then its Open Badge is offered beside it, named by the result's code", async () => {
    db.results = [makeResult({ certificateUrl: LINK })];
    renderStudentApp(completePath);
    const link = await screen.findByRole('link', { name: 'Download Open Badge' });
    const code = encodeURIComponent(makeResult().assessmentCode!);
    expect(new URL(link.getAttribute('href')!).pathname).toBe(`/api/verify/${code}/credential`);
  });

  it('when the download fails, then "Failed to download certificate" shows', async () => {
    certificateServer(403);
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    db.results = [makeResult({ certificateUrl: LINK })];
    const { user } = renderStudentApp(completePath);
    await user.click(await screen.findByRole('button', { name: 'Download Certificate' }));
    expect(
      await screen.findByText('Failed to download certificate', { selector: '.Toastify *' }),
    ).toBeInTheDocument();
    expect(saveBlob).not.toHaveBeenCalled();
    expect(logged).toHaveBeenCalled();
    logged.mockRestore();
  });

  it('when the result failed, then no certificate is offered and nothing is awaited', async () => {
    db.results = [makeFailedResult()];
    renderStudentApp(completePath);
    await screen.findByRole('heading', { name: 'Assessment Complete' });
    expect(screen.queryByText(/certificate/i)).not.toBeInTheDocument();
  });
});
