import { screen, waitFor, within } from '@testing-library/react';
import { superAdmin } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/render';
import { openSession } from '../../../testing/server';
import { store, useResultsServer } from './results-server';

useResultsServer();

describe('Item Analysis', () => {
  it('when opened, then the analysis screen (not a result detail) shows facility per question, section means and the histogram', async () => {
    renderApp('/admin/results/analysis', { token: openSession(superAdmin._id) });
    const table = await screen.findByRole('table', { name: 'Facility per question' });
    expect(screen.getByRole('heading', { level: 1, name: 'Item Analysis' })).toBeInTheDocument();
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('Do you have a computer?')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('75%')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('25%')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Study Habits')).toBeInTheDocument();
    const means = screen.getByRole('region', { name: 'Section Means' });
    expect(within(means).getByText('Digital Skills')).toBeInTheDocument();
    expect(within(means).getByText('75%')).toBeInTheDocument();
    const histogram = screen.getByRole('list', { name: 'Distribution of percentages' });
    const buckets = within(histogram).getAllByRole('listitem');
    expect(buckets).toHaveLength(10);
    expect(within(histogram).getByText('70–79%: 5 results')).toBeInTheDocument();
    expect(within(histogram).getByText('20–29%: 1 result')).toBeInTheDocument();
    expect(within(histogram).getByText('90–100%: 0 results')).toBeInTheDocument();
    expect(store.analysisQueries.at(-1)?.has('version')).toBe(false);
  });

  it('when another version is chosen, then its analysis is asked for and the choice is kept in the URL', async () => {
    const { user, router } = renderApp('/admin/results/analysis', { token: openSession(superAdmin._id) });
    const select = await screen.findByRole('combobox', { name: 'Assessment version' });
    expect(select).toHaveValue('2');
    await user.selectOptions(select, 'Version 1');
    await waitFor(() => expect(store.analysisQueries.at(-1)?.get('version')).toBe('1'));
    expect(router.state.location.search).toBe('?version=1');
    expect(await screen.findByText('No results yet')).toBeInTheDocument();
  });
});
