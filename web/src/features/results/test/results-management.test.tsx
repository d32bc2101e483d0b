import { screen, waitFor, within } from '@testing-library/react';
import { superAdmin } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/render';
import { openSession, server } from '../../../testing/server';
import {
  ada,
  failedResult,
  failing,
  grace,
  passedResult,
  saved,
  seedResults,
  store,
  studentsResults,
  useResultsServer,
} from './results-server';

useResultsServer();

async function openResults(path = '/admin/results') {
  const app = renderApp(path, { token: openSession(superAdmin._id) });
  await screen.findByRole('table', { name: 'Assessment results' });
  return app;
}

const row = (name: string) => screen.getByRole('row', { name: new RegExp(name) });
const lastQuery = () => store.listQueries.at(-1) ?? new URLSearchParams();
const pageButtons = () =>
  within(screen.getByRole('navigation', { name: 'Result pages' }))
    .getAllByRole('button', { name: /^Page \d+$/ })
    .map((b) => b.textContent);
const many = (count: number) => seedResults(studentsResults(count));
const search = (router: { state: { location: { search: string } } }) =>
  new URLSearchParams(router.state.location.search);

describe('Results Management', () => {
  it('when the list loads, then four stats, the columns and each row with its badges show', async () => {
    await openResults();
    expect(screen.getByRole('heading', { level: 1, name: 'Results Management' })).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Total Results' })).getByText('2')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Passed' })).getByText('1')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Failed' })).getByText('1')).toBeInTheDocument();
    // The mean of the stored whole percentages (100 and 67), rounded as the service rounds it.
    const average = Math.round((passedResult.percentage + failedResult.percentage) / 2);
    expect(
      within(screen.getByRole('region', { name: 'Average Score' })).getByText(`${average}%`),
    ).toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Student',
      'Score',
      'Status',
      'Assessment Code',
      'Completed',
      'Actions',
    ]);
    // Ada every answer right (6 of 6); Grace 4 of 6, shown to one decimal, with an empty code.
    expect(within(row(ada.name)).getByText(`${passedResult.percentage}%`)).toHaveClass('badge--success');
    expect(within(row(ada.name)).getByText('Passed')).toBeInTheDocument();
    expect(within(row(ada.name)).getByText(passedResult.assessmentCode)).toBeInTheDocument();
    expect(within(row(grace.name)).getByText('66.7%')).toHaveClass('badge--danger');
    expect(within(row(grace.name)).getByText('Failed')).toBeInTheDocument();
    expect(within(row(grace.name)).getByText('N/A')).toBeInTheDocument();
    expect(within(row(ada.name)).getByRole('link', { name: `View result of ${ada.name}` })).toHaveAttribute(
      'href',
      `/admin/results/${passedResult.resultId}`,
    );
    // A failed result has no certificate to resend.
    expect(within(row(ada.name)).getByRole('button', { name: /Resend certificate/ })).toBeInTheDocument();
    expect(
      within(row(grace.name)).queryByRole('button', { name: /Resend certificate/ }),
    ).not.toBeInTheDocument();
    expect(lastQuery().get('page')).toBe('1');
    expect(lastQuery().get('limit')).toBe('20');
    expect(screen.getByRole('link', { name: 'Item Analysis' })).toHaveAttribute(
      'href',
      '/admin/results/analysis',
    );
  });

  it('when there are many pages, then at most five page buttons surround the current one, with First, Previous, Next and Last', async () => {
    many(200);
    const { user, router } = await openResults('/admin/results?limit=10&page=7');
    expect(pageButtons()).toEqual(['5', '6', '7', '8', '9']);
    expect(screen.getByRole('button', { name: 'Page 7' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByText('Showing 61–70 of 200 results')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Last' }));
    await waitFor(() => expect(pageButtons()).toEqual(['16', '17', '18', '19', '20']));
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Last' })).toBeDisabled();
    expect(search(router).get('page')).toBe('20');
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    await waitFor(() => expect(lastQuery().get('page')).toBe('19'));
    await user.click(screen.getByRole('button', { name: 'First' }));
    await waitFor(() => expect(pageButtons()).toEqual(['1', '2', '3', '4', '5']));
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    await waitFor(() => expect(lastQuery().get('page')).toBe('3'));
    expect(pageButtons()).toEqual(['1', '2', '3', '4', '5']);
  });

  it('when there are fewer than five pages, then one button per page shows', async () => {
    many(45);
    await openResults();
    expect(pageButtons()).toEqual(['1', '2', '3']);
  });

  it('when the search, filter, sort or page size changes, then the list goes back to page 1', async () => {
    many(120);
    const { user, router } = await openResults('/admin/results?page=3');
    expect(lastQuery().get('page')).toBe('3');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Result' }), 'Passed');
    await waitFor(() => expect(lastQuery().get('status')).toBe('passed'));
    expect(lastQuery().get('page')).toBe('1');

    await user.click(await screen.findByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(lastQuery().get('page')).toBe('2'));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Sort by' }), 'Highest score');
    await waitFor(() => expect(lastQuery().get('sortBy')).toBe('score'));
    expect(lastQuery().get('sortOrder')).toBe('desc');
    expect(lastQuery().get('page')).toBe('1');

    await user.click(await screen.findByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(lastQuery().get('page')).toBe('2'));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Results per page' }), '10');
    await waitFor(() => expect(lastQuery().get('limit')).toBe('10'));
    expect(lastQuery().get('page')).toBe('1');

    await user.click(await screen.findByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(lastQuery().get('page')).toBe('2'));
    await user.type(screen.getByRole('searchbox', { name: 'Search results' }), 'student 1');
    await waitFor(() => expect(lastQuery().get('search')).toBe('student 1'));
    expect(lastQuery().get('page')).toBe('1');
    expect(Object.fromEntries(search(router))).toEqual({
      status: 'passed',
      sortBy: 'score',
      limit: '10',
      search: 'student 1',
    });
  });

  it('when the page is opened from a shared address, then its filters are read back from the URL', async () => {
    many(60);
    await openResults(
      '/admin/results?search=student&status=failed&sortBy=studentName&sortOrder=asc&limit=50&page=1',
    );
    expect(lastQuery().get('search')).toBe('student');
    expect(lastQuery().get('status')).toBe('failed');
    expect(lastQuery().get('sortBy')).toBe('studentName');
    expect(lastQuery().get('sortOrder')).toBe('asc');
    expect(lastQuery().get('limit')).toBe('50');
    expect(screen.getByRole('searchbox', { name: 'Search results' })).toHaveValue('student');
    expect(screen.getByRole('combobox', { name: 'Result' })).toHaveValue('failed');
    expect(screen.getByRole('combobox', { name: 'Sort by' })).toHaveDisplayValue('Student name (A–Z)');
    expect(screen.getByRole('combobox', { name: 'Results per page' })).toHaveValue('50');
  });

  it('when the sidebar link opens the plain list again, then the search box and filter are cleared with it', async () => {
    const { user } = await openResults('/admin/results?search=ada&status=passed');
    expect(screen.getByRole('searchbox', { name: 'Search results' })).toHaveValue('ada');
    await user.click(screen.getByRole('link', { name: 'Results' }));
    await waitFor(() => expect(screen.getByRole('searchbox', { name: 'Search results' })).toHaveValue(''));
    expect(screen.getByRole('combobox', { name: 'Result' })).toHaveValue('all');
    await waitFor(() => expect(lastQuery().has('search')).toBe(false));
    expect(lastQuery().has('status')).toBe(false);
  });

  describe('Back to Results', () => {
    const list = '?search=student&status=passed&sortBy=studentName&sortOrder=asc&limit=10&page=2';

    it('when a result opened from a filtered, sorted later page is left by Back to Results, then that very list shows again', async () => {
      many(60);
      const { user, router } = await openResults(`/admin/results${list}`);
      const [first] = within(screen.getByRole('table', { name: 'Assessment results' }))
        .getAllByRole('row')
        .slice(1);
      const name = within(first!).getByText(/^Student \d+$/).textContent!;
      const id = store.results.find((r) => r.name === name)!.resultId;
      await user.click(within(first!).getByRole('link', { name: `View result of ${name}` }));
      await screen.findByRole('region', { name: 'Student Information' });
      expect(router.state.location.pathname).toBe(`/admin/results/${id}`);

      await user.click(screen.getByRole('link', { name: 'Back to Results' }));
      await screen.findByRole('table', { name: 'Assessment results' });
      expect(router.state.location.pathname).toBe('/admin/results');
      expect(Object.fromEntries(search(router))).toEqual(Object.fromEntries(new URLSearchParams(list)));
      expect(screen.getByRole('searchbox', { name: 'Search results' })).toHaveValue('student');
      expect(screen.getByRole('combobox', { name: 'Result' })).toHaveValue('passed');
      expect(screen.getByRole('combobox', { name: 'Sort by' })).toHaveDisplayValue('Student name (A–Z)');
      expect(screen.getByRole('combobox', { name: 'Results per page' })).toHaveValue('10');
      expect(screen.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
      await waitFor(() => expect(lastQuery().get('page')).toBe('2'));
    });

    it('when Item Analysis is opened from a filtered list and another version chosen, then its Back still returns to that list', async () => {
      many(60);
      const { user, router } = await openResults(`/admin/results${list}`);
      await user.click(screen.getByRole('link', { name: 'Item Analysis' }));
      await user.selectOptions(
        await screen.findByRole('combobox', { name: 'Assessment version' }),
        'Version 1',
      );
      await waitFor(() => expect(router.state.location.search).toBe('?version=1'));
      await user.click(screen.getByRole('link', { name: 'Back to Results' }));
      await screen.findByRole('table', { name: 'Assessment results' });
      expect(Object.fromEntries(search(router))).toEqual(Object.fromEntries(new URLSearchParams(list)));
    });

    it('when a result is opened from elsewhere, or with a state that is not a list, then Back to Results opens the plain list', async () => {
      const detail = `/admin/results/${passedResult.resultId}`;
      for (const entry of [detail, { pathname: detail, state: { resultsList: 42 } }]) {
        const { router, unmount } = renderApp(entry, { token: openSession(superAdmin._id) });
        await screen.findByRole('region', { name: 'Student Information' });
        expect(router.state.location.pathname).toBe(detail);
        expect(screen.getByRole('link', { name: 'Back to Results' })).toHaveAttribute(
          'href',
          '/admin/results',
        );
        unmount();
      }
      // Whatever the state holds, Back stays on the list: it is read as search parameters only.
      renderApp(
        { pathname: detail, state: { resultsList: '//evil.example/x?status=failed' } },
        {
          token: openSession(superAdmin._id),
        },
      );
      await screen.findByRole('region', { name: 'Student Information' });
      expect(screen.getByRole('link', { name: 'Back to Results' }).getAttribute('href')).toMatch(
        /^\/admin\/results\?/,
      );
    });
  });

  it('when the URL carries values the server does not know, then the defaults are used instead', async () => {
    await openResults('/admin/results?limit=7&status=maybe&sortBy=password&page=-2');
    expect(lastQuery().get('limit')).toBe('20');
    expect(lastQuery().get('page')).toBe('1');
    expect(lastQuery().has('status')).toBe(false);
    expect(lastQuery().get('sortBy')).toBe('completedAt');
  });

  it('when the last row of a page above 1 is deleted, then the list moves back one page', async () => {
    many(21);
    const { user, router } = await openResults('/admin/results?page=2');
    expect(screen.getAllByRole('row')).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: /^Delete result of/ }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Result' });
    expect(within(dialog).getByText(/This cannot be undone/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Delete Result' }));
    expect(await screen.findByText('Assessment result deleted successfully')).toBeInTheDocument();
    await waitFor(() => expect(search(router).has('page')).toBe(false));
    await waitFor(() => expect(lastQuery().get('page')).toBe('1'));
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(21));
  });

  it('when a delete is cancelled or fails, then the row stays and the failure is named', async () => {
    const { user } = await openResults();
    await user.click(screen.getByRole('button', { name: `Delete result of ${grace.name}` }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    server.use(failing('delete', '/api/admin/results/{id}', 500));
    await user.click(screen.getByRole('button', { name: `Delete result of ${grace.name}` }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete Result' }));
    expect(await screen.findByText('Failed to delete assessment result')).toBeInTheDocument();
    expect(row(grace.name)).toBeInTheDocument();
  });

  it('when a PDF report is confirmed, then it is fetched with the token and saved under the student name', async () => {
    const { user } = await openResults();
    await user.click(screen.getByRole('button', { name: `Download PDF report of ${ada.name}` }));
    const dialog = screen.getByRole('dialog', { name: 'Download PDF Report' });
    await user.click(within(dialog).getByRole('button', { name: 'Download PDF Report' }));
    expect(await screen.findByText('PDF report downloaded successfully')).toBeInTheDocument();
    expect(saved).toEqual(['assessment-report-Ada-Lovelace.pdf']);
    expect(store.fileRequests.at(-1)?.authorization).toMatch(/^Bearer /);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('when the PDF report cannot be prepared, then "Failed to download PDF report" shows', async () => {
    server.use(failing('get', '/api/admin/results/{id}/pdf', 503, 'No browser available'));
    const { user } = await openResults();
    await user.click(screen.getByRole('button', { name: `Download PDF report of ${ada.name}` }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Download PDF Report' }));
    expect(await screen.findByText('Failed to download PDF report')).toBeInTheDocument();
    expect(saved).toEqual([]);
  });

  it('when a certificate resend is confirmed, then it is sent and "Certificate resent successfully" shows', async () => {
    const { user } = await openResults();
    await user.click(screen.getByRole('button', { name: `Resend certificate to ${ada.name}` }));
    const dialog = screen.getByRole('dialog', { name: 'Resend Certificate' });
    await user.click(within(dialog).getByRole('button', { name: 'Resend Certificate' }));
    expect(await screen.findByText('Certificate resent successfully')).toBeInTheDocument();
    expect(store.resent).toEqual([passedResult.resultId]);
  });

  it('when a resend fails, then the server message shows, else "Failed to resend certificate"', async () => {
    server.use(
      failing(
        'post',
        '/api/admin/results/{id}/resend-certificate',
        409,
        'Only a passed result has a certificate to resend',
      ),
    );
    const { user } = await openResults();
    await user.click(screen.getByRole('button', { name: `Resend certificate to ${ada.name}` }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Resend Certificate' }));
    expect(await screen.findByText('Only a passed result has a certificate to resend')).toBeInTheDocument();
    server.use(failing('post', '/api/admin/results/{id}/resend-certificate', 500));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Resend Certificate' }));
    expect(await screen.findByText('Failed to resend certificate')).toBeInTheDocument();
  });

  it('when nothing matches, then "No results found" shows', async () => {
    seedResults([]);
    renderApp('/admin/results', { token: openSession(superAdmin._id) });
    expect(await screen.findByText('No results found')).toBeInTheDocument();
  });

  it('when the list cannot be loaded, then "Failed to load results" shows', async () => {
    server.use(failing('get', '/api/admin/results', 500, 'database down'));
    renderApp('/admin/results', { token: openSession(superAdmin._id) });
    expect(await screen.findByText('Failed to load results')).toBeInTheDocument();
  });

  it('when CSV export is pressed, then the export is asked with the current filter and saved', async () => {
    const { user } = await openResults('/admin/results?status=passed&search=ada');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatch(/^assessment-results-\d{4}-\d{2}-\d{2}\.csv$/);
    const asked = store.exports.at(-1)!;
    expect(asked.get('status')).toBe('passed');
    expect(asked.get('search')).toBe('ada');
    expect(asked.get('sortBy')).toBe('completedAt');
    expect(asked.has('page')).toBe(false);
  });
});
