import { screen, waitFor, within } from '@testing-library/react';
import { http } from '../../../testing/openapi-http';
import { server } from '../../../testing/server';
import {
  CLOSED_MESSAGE,
  LIMIT_MESSAGE,
  closedAttempt,
  live,
  openLive,
  overLimit,
  row,
  useLiveServer,
} from './live-server';

useLiveServer();

async function openAddTime(user: Awaited<ReturnType<typeof openLive>>['user'], name: string) {
  await user.click(within(row(name)).getByRole('button', { name: `Add time for ${name}` }));
  return screen.getByRole('dialog', { name: 'Add time' });
}

async function openEnd(user: Awaited<ReturnType<typeof openLive>>['user'], name: string) {
  await user.click(within(row(name)).getByRole('button', { name: `End attempt for ${name}` }));
  return screen.getByRole('dialog', { name: 'End attempt' });
}

const MINUTES_MESSAGE = 'Minutes must be a whole number from 1 to 600';

describe('Live attempts: adding time and ending', () => {
  it('when the minutes are blank, 0 or 601, then they are refused under the field and nothing is sent', async () => {
    const { user } = await openLive();
    const dialog = await openAddTime(user, 'Marie Curie');
    expect(dialog).toHaveTextContent(
      "Add time to Marie Curie's attempt. Their page shows the new time within a few seconds.",
    );
    const minutes = within(dialog).getByLabelText('Minutes to add');
    expect(minutes).toHaveValue(10);
    for (const typed of ['', '0', '601']) {
      await user.clear(minutes);
      if (typed) await user.type(minutes, typed);
      await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
      expect(await within(dialog).findByText(MINUTES_MESSAGE)).toBeInTheDocument();
      expect(minutes).toHaveAccessibleDescription(MINUTES_MESSAGE);
    }
    expect(live.extended).toHaveLength(0);
  });

  it('when 15 minutes are confirmed, then they are sent, the server’s message shows and the row follows', async () => {
    const { user } = await openLive();
    const dialog = await openAddTime(user, 'Marie Curie');
    const minutes = within(dialog).getByLabelText('Minutes to add');
    await user.clear(minutes);
    await user.type(minutes, '15');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Added 15 minutes for Marie Curie')).toBeInTheDocument();
    expect(live.extended).toEqual([{ attemptId: 'at-1', body: { minutes: 15 } }]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await within(row('Marie Curie')).findByText('+15 min added')).toBeInTheDocument();
  });

  it('when the time is more than the attempt can still be given, then the server’s limit shows under the minutes and the dialog stays open', async () => {
    server.use(http.post('/api/admin/live/{attemptId}/extend', overLimit));
    const { user } = await openLive();
    const dialog = await openAddTime(user, 'Niels Bohr');
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    const minutes = within(dialog).getByLabelText('Minutes to add');
    expect(await within(dialog).findByText(LIMIT_MESSAGE)).toBeInTheDocument();
    expect(minutes).toHaveAccessibleDescription(LIMIT_MESSAGE);
    expect(minutes).toHaveFocus();
    expect(screen.getByRole('dialog', { name: 'Add time' })).toBeInTheDocument();
    expect(within(row('Niels Bohr')).getByText('+10 min added')).toBeInTheDocument();
  });

  it('when an attempt is ended, then it asks first, Cancel sends nothing, and End attempt posts and takes it off the list', async () => {
    const { user } = await openLive();
    let dialog = await openEnd(user, 'Niels Bohr');
    expect(dialog).toHaveTextContent(
      "Niels Bohr's attempt ends now and is scored from their last saved answers. This cannot be undone.",
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(live.ended).toHaveLength(0);

    dialog = await openEnd(user, 'Niels Bohr');
    await user.click(within(dialog).getByRole('button', { name: 'End attempt' }));
    expect(
      await screen.findByText('Attempt ended for Niels Bohr; it is scored from the last saved answers'),
    ).toBeInTheDocument();
    expect(live.ended).toEqual([{ attemptId: 'at-2', body: '' }]);
    await waitFor(() => expect(screen.queryByRole('row', { name: /Niels Bohr/ })).not.toBeInTheDocument());
  });

  it('when the attempt was submitted a moment before, then the 409’s message shows for either action', async () => {
    server.use(
      http.post('/api/admin/live/{attemptId}/extend', closedAttempt),
      http.post('/api/admin/live/{attemptId}/end', closedAttempt),
    );
    const { user } = await openLive();
    const addTime = await openAddTime(user, 'Lise Meitner');
    await user.click(within(addTime).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(CLOSED_MESSAGE)).toBeInTheDocument();
    await user.click(within(addTime).getByRole('button', { name: 'Cancel' }));

    const end = await openEnd(user, 'Lise Meitner');
    await user.click(within(end).getByRole('button', { name: 'End attempt' }));
    await waitFor(() => expect(screen.getAllByText(CLOSED_MESSAGE)).toHaveLength(2));
  });
});
