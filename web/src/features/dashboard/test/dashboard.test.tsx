import { screen, within } from '@testing-library/react';
import { timestampFromDate } from '@readiness/contracts';
import { resultFailed, resultRecorded } from '@readiness/testing/fixtures';
import { superAdmin } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/render';
import { openSession, server } from '../../../testing/server';
import { http } from '../../../testing/openapi-http';
import { answer, outage } from '../../../testing/answer';
import { recentResultOf } from '../../../testing/seeded';
import type { Dashboard } from '../api/types';

let dashboard: Dashboard;

/** Two of the fixtures' results, as the results service records them: every answer right, and one wrong. */
const marie = resultRecorded({
  resultId: 'r-marie',
  name: 'Marie Curie',
  email: 'marie@example.edu',
  completedAt: timestampFromDate(new Date('2025-03-01T09:01:00.000Z')),
});
const niels = resultFailed({
  resultId: 'r-niels',
  name: 'Niels Bohr',
  email: 'niels@example.edu',
  completedAt: timestampFromDate(new Date('2025-03-01T09:02:00.000Z')),
});

beforeEach(() => {
  dashboard = {
    stats: {
      totalStudents: 42,
      completedAssessments: 17,
      passedAssessments: 12,
      pendingInvites: 9,
      // 12 of 17 in whole percents, as the service works it out (`percentOf`): its declaration says integer.
      passRate: Math.round((12 * 100) / 17),
      inProgress: 3,
    },
    recentResults: [recentResultOf(marie), recentResultOf(niels)],
  };
  server.use(http.get('/api/admin/dashboard', () => answer('/api/admin/dashboard', 'get', dashboard)));
});

const openDashboard = () => renderApp('/admin/dashboard', { token: openSession(superAdmin._id) });
const stat = (label: string) => screen.getByRole('region', { name: label });

describe('Dashboard', () => {
  it('when it loads, then the four stat cards show the totals and the pass rate as a percentage', async () => {
    openDashboard();
    expect(await screen.findByText('42')).toBeInTheDocument();
    expect(within(stat('Total Students')).getByText('42')).toBeInTheDocument();
    expect(within(stat('Completed Assessments')).getByText('17')).toBeInTheDocument();
    expect(within(stat('Pass Rate')).getByText('71%')).toBeInTheDocument();
    expect(within(stat('Pending Invites')).getByText('9')).toBeInTheDocument();
  });

  it('when recent results are at the pass mark of 70, then their badges read 69.5%, 69.9% and 70%, never 70% for a fail', async () => {
    dashboard.recentResults = [69.5, 69.9, 70].map((percentage, i) => ({
      _id: `r-${i}`,
      student: { name: `Student ${i}`, email: `s${i}@example.edu` },
      percentage,
      passed: percentage >= 70,
      completedAt: '2025-03-01T09:01:00.000Z',
    }));
    openDashboard();
    const recent = await screen.findByRole('region', { name: 'Recent Assessment Results' });
    const items = await within(recent).findAllByRole('listitem');
    expect(
      items.map((item) => [
        within(item).getByText(/%$/).textContent,
        within(item).getByText(/ed$/).textContent,
      ]),
    ).toEqual([
      ['69.5%', 'Failed'],
      ['69.9%', 'Failed'],
      ['70%', 'Passed'],
    ]);
  });

  it('when there are results, then each recent one shows name, email, percentage, Passed or Failed and the date', async () => {
    openDashboard();
    const recent = await screen.findByRole('region', { name: 'Recent Assessment Results' });
    const items = await within(recent).findAllByRole('listitem');
    expect(items).toHaveLength(2);
    const [first, second] = items as [HTMLElement, HTMLElement];
    expect(within(first).getByRole('link', { name: 'Marie Curie' })).toHaveAttribute(
      'href',
      '/admin/results/r-marie',
    );
    expect(within(first).getByText('marie@example.edu')).toBeInTheDocument();
    expect(within(first).getByText(`${marie.percentage}%`)).toHaveClass('badge--success');
    expect(within(first).getByText('Passed')).toBeInTheDocument();
    expect(within(first).getByText(/Mar 1, 2025/)).toBeInTheDocument();
    expect(within(second).getByText(`${niels.percentage}%`)).toHaveClass('badge--danger');
    expect(within(second).getByText('Failed')).toBeInTheDocument();
  });

  it('when nothing is completed yet, then "No results yet" shows', async () => {
    dashboard = { ...dashboard, recentResults: [] };
    openDashboard();
    expect(await screen.findByText('No results yet')).toBeInTheDocument();
  });

  it('when the quick actions are shown, then they lead to students, assessments and results', async () => {
    openDashboard();
    const actions = await screen.findByRole('region', { name: 'Quick Actions' });
    expect(within(actions).getByRole('link', { name: 'Invite Students' })).toHaveAttribute(
      'href',
      '/admin/students',
    );
    expect(within(actions).getByRole('link', { name: 'Manage Assessment' })).toHaveAttribute(
      'href',
      '/admin/assessments',
    );
    expect(within(actions).getByRole('link', { name: 'View All Results' })).toHaveAttribute(
      'href',
      '/admin/results',
    );
  });

  it('when the dashboard cannot be loaded, then "Failed to load dashboard data" shows', async () => {
    server.use(
      http.get('/api/admin/dashboard', ({ response }) =>
        response.untyped(outage(500, { message: 'database down', code: 'failed' })),
      ),
    );
    openDashboard();
    expect(await screen.findByText('Failed to load dashboard data')).toBeInTheDocument();
    expect(screen.queryByText('database down')).not.toBeInTheDocument();
  });
});
