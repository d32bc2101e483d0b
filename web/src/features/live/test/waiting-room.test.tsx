import { screen, waitFor, within } from '@testing-library/react';
import { http } from '../../../testing/openapi-http';
import { expectErrorAtField } from '../../../testing/fields';
import { server } from '../../../testing/server';
import { CEILING_MESSAGE, ceilingRefused, live, openLive, useLiveServer } from './live-server';

useLiveServer();

const panel = () => screen.getByRole('region', { name: 'Waiting room' });
const figure = (label: string) => within(panel()).getByText(label).closest('div')!;
const limitField = () => within(panel()).getByLabelText('Most starts a minute');

describe('Live: the waiting room', () => {
  it('when students wait, then the panel above the attempts shows how many, the longest wait, the rate, who sets it and the pressure', async () => {
    live.room = {
      enabled: true,
      unlimited: false,
      serving: 4700,
      waiting: 2890,
      longestWaitSeconds: 252,
      perMinute: 196.4,
      ceilingPerMinute: null,
      pressure: 'overloaded',
      admittedLastMinute: 180,
    };
    await openLive();
    expect(await within(panel()).findByText('2,890 students')).toBeInTheDocument();
    expect(figure('Waiting to start')).toHaveTextContent('2,890 students');
    expect(figure('Longest wait')).toHaveTextContent('4 min 12 s');
    expect(figure('Admission')).toHaveTextContent('Admitting about 196 a minute');
    expect(figure('Admission')).toHaveTextContent("Automatic: the product's measured capacity");
    expect(figure('Admission')).toHaveTextContent('180 students started in the last minute');
    expect(figure('Pressure')).toHaveTextContent('Under pressure');
    // Above the attempts.
    const regions = screen.getAllByRole('region').map((r) => r.getAttribute('aria-label'));
    expect(regions.indexOf('Waiting room')).toBeLessThan(regions.indexOf('Live attempts'));
    expect(screen.queryByText('Nobody is waiting: every student starts at once.')).not.toBeInTheDocument();
    // The figures change at every poll: the status region does not repeat them as the screen opens.
    expect(within(panel()).getByRole('status')).toBeEmptyDOMElement();
  });

  it('when nothing limits the rate, then the panel says everyone starts at once instead of a rate nobody reaches', async () => {
    live.room = { ...live.room, unlimited: true, perMinute: 60_000_000, waiting: 0, ceilingPerMinute: null };
    await openLive();
    expect(
      await within(panel()).findByText('Admitting every student at once: no limit is set'),
    ).toBeInTheDocument();
    expect(within(panel()).queryByText(/Admitting about/)).not.toBeInTheDocument();
  });

  it('when nobody waits, then the panel says every student starts at once, and announces it when the line empties', async () => {
    live.room = { ...live.room, waiting: 4, longestWaitSeconds: 40 };
    await openLive();
    expect(await within(panel()).findByText('40 s')).toBeInTheDocument();
    live.room = { ...live.room, waiting: 0, longestWaitSeconds: 0 };
    const status = within(panel()).getByRole('status');
    await waitFor(
      () => expect(status).toHaveTextContent('Nobody is waiting: every student starts at once.'),
      {
        timeout: 6_000,
      },
    );
    expect(within(panel()).getAllByText('Nobody is waiting: every student starts at once.')).toHaveLength(2);
    expect(within(panel()).queryByText('Waiting to start')).not.toBeInTheDocument();
    expect(figure('Admission')).toHaveTextContent('Admitting about 240 a minute');
    expect(figure('Pressure')).toHaveTextContent('Keeping up');
  });

  it('when an admin saves a limit of 30 and then Automatic, then each is sent, confirmed and shown', async () => {
    const { user } = await openLive();
    await within(panel()).findByText('Nobody is waiting: every student starts at once.');
    expect(within(panel()).queryByRole('button', { name: 'Automatic' })).not.toBeInTheDocument();
    await user.type(limitField(), '30');
    await user.click(within(panel()).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Admission limit saved')).toBeInTheDocument();
    expect(
      await within(panel()).findByText('Limited by an admin: at most 30 starts a minute'),
    ).toBeInTheDocument();
    expect(limitField()).toHaveValue(30);

    await user.click(within(panel()).getByRole('button', { name: 'Automatic' }));
    expect(await screen.findByText('Admission is automatic again')).toBeInTheDocument();
    expect(
      await within(panel()).findByText("Automatic: the product's measured capacity"),
    ).toBeInTheDocument();
    expect(live.roomChanges).toEqual([{ ceilingPerMinute: 30 }, { ceilingPerMinute: null }]);
    expect(limitField()).toHaveValue(null);
  });

  it('when the limit is blank, 0 or past 100000, then it is refused under the field and nothing is sent', async () => {
    const { user } = await openLive();
    await within(panel()).findByText('Nobody is waiting: every student starts at once.');
    const message = 'Most starts a minute must be a whole number from 1 to 100000';
    for (const typed of ['', '0', '100001']) {
      await user.clear(limitField());
      if (typed) await user.type(limitField(), typed);
      await user.click(within(panel()).getByRole('button', { name: 'Save' }));
      expect(await within(panel()).findByText(message)).toBeInTheDocument();
      expect(limitField()).toHaveAccessibleDescription(message);
    }
    expect(live.roomChanges).toEqual([]);
  });

  it('when the waiting room is switched off, then the panel says every student starts at once and offers no limit', async () => {
    live.room = { ...live.room, enabled: false };
    await openLive();
    expect(
      await within(panel()).findByText('The waiting room is off: every student starts at once.'),
    ).toBeInTheDocument();
    expect(within(panel()).queryByLabelText('Most starts a minute')).not.toBeInTheDocument();
  });

  it('when the service refuses the limit, then its message shows at the field', async () => {
    server.use(http.put('/api/admin/students/waiting-room', ceilingRefused));
    const { user } = await openLive();
    await within(panel()).findByText('Nobody is waiting: every student starts at once.');
    await user.type(limitField(), '500');
    await user.click(within(panel()).getByRole('button', { name: 'Save' }));
    await expectErrorAtField(limitField(), CEILING_MESSAGE);
    expect(screen.queryByText('Admission limit saved')).not.toBeInTheDocument();
  });
});
