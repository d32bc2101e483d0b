import { screen, waitFor, within } from '@testing-library/react';
import { superAdmin } from '../../../testing/fixtures';
import { expectErrorAtField } from '../../../testing/fields';
import { answer, refusal } from '../../../testing/answer';
import { http } from '../../../testing/openapi-http';
import { renderApp } from '../../../testing/render';
import { openSession, server } from '../../../testing/server';
import type { RetentionChange, RetentionSettings } from '../api/retention-api';

/** The student service's retention setting, in memory: off, then what the screen saves. */
let setting: RetentionSettings;
/** How many students each number of months would erase now, as the dry run answers. */
let due: (months: number) => number;
const saves: RetentionChange[] = [];
const dryRuns: number[] = [];

beforeEach(() => {
  setting = { enabled: false, months: 24, updatedAt: null, updatedBy: null };
  due = (months) => (months <= 12 ? 3 : 0);
  saves.length = 0;
  dryRuns.length = 0;
  server.use(
    http.get('/api/admin/students/retention', () => answer('/api/admin/students/retention', 'get', setting)),
    http.get('/api/admin/students/retention/dry-run', ({ request }) => {
      const months = Number(new URL(request.url).searchParams.get('months'));
      dryRuns.push(months);
      return answer('/api/admin/students/retention/dry-run', 'get', {
        months,
        cutoff: '2025-12-01T00:00:00.000Z',
        count: due(months),
        oldestActivityAt: due(months) ? '2024-02-03T10:00:00.000Z' : null,
      });
    }),
    http.put('/api/admin/students/retention', async ({ request }) => {
      const body = await request.json();
      saves.push(body);
      const count = due(body.months);
      if (body.enabled && body.expectedCount !== undefined && count > body.expectedCount) {
        return refusal(409, {
          code: 'retention_count_changed',
          message: `${count} students would be erased now, more than the ${body.expectedCount} you confirmed: run the dry run again`,
        });
      }
      setting = {
        enabled: body.enabled,
        months: body.months,
        updatedAt: '2026-12-02T09:00:00.000Z',
        updatedBy: superAdmin._id,
      };
      return answer('/api/admin/students/retention', 'put', setting);
    }),
  );
});

async function openRetention() {
  const app = renderApp('/admin/data-retention', { token: openSession(superAdmin._id) });
  await screen.findByRole('form', { name: 'Data retention' });
  return app;
}

const months = () => screen.getByLabelText('Erase students inactive for more than (months)');
type User = Awaited<ReturnType<typeof openRetention>>['user'];
async function setMonths(user: User, value: string) {
  await user.clear(months());
  if (value) await user.type(months(), value);
}

describe('Data retention', () => {
  it('when the section opens, then retention is off, and the dry run says how many students N months would erase and the oldest last activity', async () => {
    const { user } = await openRetention();
    expect(screen.getByText('Off')).toBeInTheDocument();
    expect(screen.getByText('Nobody is erased.')).toBeInTheDocument();
    expect(months()).toHaveValue(24);

    await user.click(screen.getByRole('button', { name: 'Dry run' }));
    expect(await screen.findByText('With 24 months, nobody would be erased now.')).toBeInTheDocument();
    await setMonths(user, '12');
    await user.click(screen.getByRole('button', { name: 'Dry run' }));
    expect(
      await screen.findByText(
        'With 12 months, 3 students would be erased now. The oldest last activity: Feb 3, 2024.',
      ),
    ).toBeInTheDocument();
    expect(saves).toEqual([]);
  });

  it('when switched on, then the dry run is confirmed with its count, the save carries it, and switching off needs none', async () => {
    const { user } = await openRetention();
    await setMonths(user, '12');
    await user.click(screen.getByRole('button', { name: 'Switch on' }));
    const dialog = await screen.findByRole('dialog', { name: 'Switch data retention on?' });
    expect(dialog).toHaveTextContent('3 students will be erased at the next check');
    await user.click(within(dialog).getByRole('button', { name: 'Erase 3 students' }));

    expect(await screen.findByText('Data retention is on: 12 months')).toBeInTheDocument();
    expect(saves).toEqual([{ enabled: true, months: 12, expectedCount: 3 }]);
    expect(await screen.findByText('On')).toBeInTheDocument();
    expect(screen.getByText('Students inactive for more than 12 months are erased.')).toBeInTheDocument();

    // Longer: nobody more is erased, no confirmation.
    await setMonths(user, '18');
    await user.click(screen.getByRole('button', { name: 'Save months' }));
    await waitFor(() => expect(saves.at(-1)).toEqual({ enabled: true, months: 18 }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Switch off' }));
    expect(await screen.findByText('Data retention is off')).toBeInTheDocument();
    expect(saves.at(-1)).toEqual({ enabled: false, months: 18 });
  });

  it('when more students became due between the dry run and the confirmation, then the refusal says how many and nothing is switched on', async () => {
    const { user } = await openRetention();
    await setMonths(user, '12');
    await user.click(screen.getByRole('button', { name: 'Switch on' }));
    const dialog = await screen.findByRole('dialog', { name: 'Switch data retention on?' });
    due = () => 5;
    await user.click(within(dialog).getByRole('button', { name: 'Erase 3 students' }));
    expect(
      await screen.findByText(
        '5 students would be erased now, more than the 3 you confirmed: run the dry run again',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('Off')).toBeInTheDocument();
    expect(screen.queryByText(/3 students would be erased now/)).not.toBeInTheDocument();
  });

  it('when the months are out of range, then the field says so and nothing is asked', async () => {
    const { user } = await openRetention();
    await setMonths(user, '121');
    await user.click(screen.getByRole('button', { name: 'Switch on' }));
    await expectErrorAtField(months(), 'Months must be a whole number from 1 to 120');
    await setMonths(user, '');
    await user.click(screen.getByRole('button', { name: 'Dry run' }));
    await expectErrorAtField(months(), 'Months must be a whole number from 1 to 120');
    expect([dryRuns, saves]).toEqual([[], []]);
  });
});
