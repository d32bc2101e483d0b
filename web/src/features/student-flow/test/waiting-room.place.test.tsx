import { screen, within } from '@testing-library/react';
import { renderStudentApp } from '../../../testing/render-student';
import { EXTRAPOLATE_AT_MOST_MS, pollDelay, servingAt, waitEstimate, waitingKey } from '../waiting-room';
import {
  db,
  later,
  pressStartIntoLine,
  seenPlace,
  setVisibility,
  spoken,
  TICKET,
  TOKEN,
  useWaitingLine,
  waitingCard,
} from './student-server';

// No EventSource under jsdom: the page polls the line.
useWaitingLine();

describe('The waiting page', () => {
  it('when Start answers 202, then the page shows the place, an estimate and that no time runs, and tells a screen reader the place', async () => {
    const { card } = await pressStartIntoLine();
    expect(
      within(card).getByText('You are number 312 in line', { selector: '.waiting__place' }),
    ).toBeInTheDocument();
    expect(within(card).getByText('Estimated wait: about 2 minutes')).toBeInTheDocument();
    expect(
      within(card).getByText(
        'Your time has not started. Keep this page open: your assessment will start by itself when it is your turn.',
      ),
    ).toBeInTheDocument();
    expect(spoken(card)).toHaveTextContent(/^You are number 312 in line$/);
    expect(within(card).getByRole('heading', { level: 2, name: 'You are in line to start' })).toHaveFocus();
    expect(screen.queryByRole('button', { name: 'Start Assessment' })).not.toBeInTheDocument();
    expect(screen.queryByText('Assessment started. Good luck!')).not.toBeInTheDocument();
    expect(db.attempt).toBeNull();
    expect(window.sessionStorage.getItem(waitingKey(TOKEN))).toBe(String(TICKET));
  });

  it('when a poll brings the line forward, then the place follows, moves each second between polls, and is spoken once a poll', async () => {
    const { card } = await pressStartIntoLine();
    db.line!.serving = 4800;
    db.line!.perMinute = 120;
    await later(5000);
    expect(db.linePolls).toBe(1);
    expect(spoken(card)).toHaveTextContent(/^You are number 212 in line$/);
    expect(seenPlace(card)).toBeGreaterThanOrEqual(210);

    // Two admitted a second by the new rate: the place seen moves on, what is spoken waits for the next poll.
    await later(3000);
    expect(seenPlace(card)).toBeLessThanOrEqual(208);
    expect(seenPlace(card)).toBeGreaterThanOrEqual(204);
    expect(spoken(card)).toHaveTextContent(/^You are number 212 in line$/);
    expect(within(card).getByText('Estimated wait: about 2 minutes')).toBeInTheDocument();

    db.line!.serving = 4900;
    await later(2000);
    expect(db.linePolls).toBe(2);
    expect(spoken(card)).toHaveTextContent(/^You are number 112 in line$/);
  });

  it('when a poll fails, then the last figures stay and the next poll tries again', async () => {
    const { card } = await pressStartIntoLine();
    db.lineAnswer = 'offline';
    await later(5000);
    expect(db.linePolls).toBe(1);
    expect(spoken(card)).toHaveTextContent(/^You are number 312 in line$/);
    // Carried forward by the last rate (196 a minute) for 10 s at most, not on and on to the front of the line.
    await later(20_000);
    expect(db.linePolls).toBe(5);
    expect(seenPlace(card)).toBe(312 - Math.floor((196 * EXTRAPOLATE_AT_MOST_MS) / 60_000));
    expect(spoken(card)).toHaveTextContent(/^You are number 312 in line$/);

    db.lineAnswer = 'answer';
    db.line!.serving = 4712;
    await later(5000);
    expect(db.linePolls).toBe(6);
    expect(spoken(card)).toHaveTextContent(/^You are number 300 in line$/);
  });

  it('when the line serves the ticket while the page is seen, then the page starts the attempt by itself', async () => {
    await pressStartIntoLine();
    db.line!.serving = TICKET;
    await later(5000);
    expect(await screen.findByRole('heading', { level: 2, name: 'Technology' })).toBeInTheDocument();
    expect(await screen.findByText('Assessment started. Good luck!')).toBeInTheDocument();
    expect(db.starts).toBe(2);
    expect(db.attempt).not.toBeNull();
    expect(window.sessionStorage.getItem(waitingKey(TOKEN))).toBeNull();
  });

  it('when the line serves the ticket while the tab is hidden, then no clock starts: the page says it is their turn and starts when they press Start', async () => {
    const { user } = await pressStartIntoLine();
    setVisibility('hidden');
    await later(5000);
    expect(db.linePolls).toBe(1);
    db.line!.serving = TICKET;
    // Hidden, the page polls at the slow end of its jitter.
    await later(8000);
    expect(db.linePolls).toBe(1);
    await later(1000);
    expect(db.linePolls).toBe(2);
    const turn = await screen.findByRole('region', { name: 'It is your turn' });
    expect(within(turn).getByText('Your time starts when you press Start Assessment.')).toBeInTheDocument();
    expect(document.title).toBe('It is your turn — Readiness');
    expect(db.starts).toBe(1);
    expect(db.attempt).toBeNull();

    // Back on the tab, the page still waits for the student.
    setVisibility('visible');
    await later(10_000);
    expect(db.starts).toBe(1);
    expect(db.attempt).toBeNull();

    await user.click(within(turn).getByRole('button', { name: 'Start Assessment' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Technology' })).toBeInTheDocument();
    expect(db.starts).toBe(2);
    expect(document.title).toBe('Readiness — Assessment');
  });

  it('when the page reloads while in line, then it asks Start again and shows the same ticket’s place', async () => {
    const { unmount } = await pressStartIntoLine();
    unmount();
    db.line!.serving = 4900;
    renderStudentApp(`/assessment/${TOKEN}`);
    const card = await waitingCard();
    expect(spoken(card)).toHaveTextContent(/^You are number 112 in line$/);
    expect(db.starts).toBe(2);
    expect(db.ticket).toBe(TICKET);
    expect(db.line!.nextTicket).toBe(TICKET + 1);
  });

  it('when a student who never pressed Start opens the link, then the welcome page shows and Start is not called', async () => {
    renderStudentApp(`/assessment/${TOKEN}`);
    expect(await screen.findByRole('button', { name: 'Start Assessment' })).toBeEnabled();
    await later(10_000);
    expect(db.starts).toBe(0);
    expect(db.linePolls).toBe(0);
  });

  it('when the waiting page goes away, then it stops polling', async () => {
    const { unmount } = await pressStartIntoLine();
    await later(5000);
    expect(db.linePolls).toBe(1);
    unmount();
    await later(30_000);
    expect(db.linePolls).toBe(1);
  });

  it('when the student reads Arabic, then the place is in Arabic, right to left', async () => {
    db.language = 'ar';
    const { user } = renderStudentApp(`/assessment/${TOKEN}`);
    await user.click(await screen.findByRole('button', { name: 'بدء التقييم' }));
    const card = await screen.findByRole('region', { name: 'أنت في قائمة الانتظار للبدء' });
    expect(spoken(card)).toHaveTextContent(/^ترتيبك في قائمة الانتظار: 312$/);
    expect(within(card).getByText('مدة الانتظار المتوقعة: نحو دقيقتين')).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
  });
});

describe('The waiting page’s figures', () => {
  it('when the page is seen, then it polls every 5 to 9 s at random; hidden, every 9 s', () => {
    expect(pollDelay(false, () => 0)).toBe(5000);
    expect(pollDelay(false, () => 0.9999)).toBeLessThanOrEqual(9000);
    expect(pollDelay(false, () => 0.5)).toBe(7000);
    expect(pollDelay(true, () => 0)).toBe(9000);
  });

  it('when time passes after the figures, then the serving ticket moves on by the rate, rounded down, for at most 10 s', () => {
    const line = { serving: 100, perMinute: 60, receivedAt: 0 };
    expect(servingAt(line, 0)).toBe(100);
    expect(servingAt(line, 2500)).toBe(102);
    expect(servingAt(line, EXTRAPOLATE_AT_MOST_MS + 60_000)).toBe(110);
    expect(servingAt({ ...line, perMinute: null }, 5000)).toBe(100);
  });

  it.each([
    [312, 196, { unit: 'minutes', minutes: 2 }],
    [3, 196, { unit: 'underMinute' }],
    [196, 196, { unit: 'minutes', minutes: 1 }],
    [5000, 10, { unit: 'hours', hours: 8 }],
    [312, null, null],
    [312, 0, null],
  ])('when %s are ahead at %s a minute, then the wait reads %j', (place, perMinute, estimate) => {
    expect(waitEstimate(place, perMinute)).toEqual(estimate);
  });
});
