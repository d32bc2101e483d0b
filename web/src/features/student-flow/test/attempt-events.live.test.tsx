import { act, screen, waitFor, within } from '@testing-library/react';
import { outage } from '../../../testing/answer';
import { http } from '../../../testing/openapi-http';
import { renderStudentApp, where } from '../../../testing/render-student';
import { server } from '../../../testing/server';
import type { AttemptEvent } from '../hooks/use-attempt-events';
import { keptAnswersKey } from '../autosave';
import {
  attemptAnswered,
  attemptInProgress,
  db,
  makeFailedResult,
  seededFailedResult,
  serverNow,
  FakeEventSource,
  TOKEN,
  useFakeEventSource,
  useStudentServer,
} from './student-server';

useStudentServer();

useFakeEventSource();

const toast = (text: string) => screen.findByText(text, { selector: '.Toastify *' });
const timer = () => screen.getByRole('timer', { name: 'Time remaining' });
const question = (text: string) => screen.getByRole('group', { name: new RegExp(text) });
const later = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * 60_000).toISOString();

/** The state of the attempt as the stream reports it. */
const attemptEvent = (overrides: Partial<AttemptEvent> = {}): AttemptEvent => ({
  attemptId: 'att-1',
  deadlineAt: db.attempt!.deadlineAt,
  status: 'in_progress',
  serverNow: serverNow(),
  addedMinutes: 0,
  ...overrides,
});

/** Resumes the attempt in progress (20 minutes left unless set) on the section it opens at; returns its stream. */
async function resume(section = 'Technology') {
  db.attempt ??= attemptInProgress({}, 20);
  const app = renderStudentApp(`/assessment/${TOKEN}`);
  await screen.findByRole('heading', { level: 2, name: section });
  await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1));
  return { ...app, stream: FakeEventSource.instances[0]!, deadlineAt: db.attempt!.deadlineAt };
}

describe('The test page follows the attempt', () => {
  it('when an administrator adds time, then the countdown moves to the new deadline and a toast says how much', async () => {
    // The server's clock is an hour ahead: the time left is counted by its clock, as at load.
    db.clockAhead = 3_600_000;
    const { stream, deadlineAt } = await resume();
    expect(stream.url).toBe(`${window.location.origin}/api/student/${TOKEN}/events`);
    expect(timer().textContent).toMatch(/^(20:00|19:5\d)$/);

    // The message at connect repeats what the page has: nothing to say.
    stream.emit('attempt', attemptEvent());
    expect(timer().textContent).toMatch(/^(20:00|19:5\d)$/);

    stream.emit('attempt', attemptEvent({ deadlineAt: later(deadlineAt, 10), addedMinutes: 10 }));
    expect(await toast('You have been given 10 more minutes.')).toBeInTheDocument();
    expect(timer().textContent).toMatch(/^(30:00|29:5\d)$/);

    stream.emit('attempt', attemptEvent({ deadlineAt: later(deadlineAt, 11), addedMinutes: 11 }));
    expect(await toast('You have been given 1 more minute.')).toBeInTheDocument();
    expect(timer().textContent).toMatch(/^(31:00|30:5\d)$/);
  });

  it('when the stream reports an earlier deadline or another attempt, then the countdown keeps its deadline', async () => {
    const { stream, deadlineAt } = await resume();
    stream.emit('attempt', attemptEvent({ deadlineAt: later(deadlineAt, -5) }));
    stream.emit('attempt', attemptEvent({ attemptId: 'att-0', deadlineAt: later(deadlineAt, 30) }));
    expect(timer().textContent).toMatch(/^(20:00|19:5\d)$/);
    // The next extension counts from the deadline the page kept, not from the earlier one.
    stream.emit('attempt', attemptEvent({ deadlineAt: later(deadlineAt, 5), addedMinutes: 5 }));
    expect(await toast('You have been given 5 more minutes.')).toBeInTheDocument();
    expect(timer().textContent).toMatch(/^(25:00|24:5\d)$/);
    expect(screen.queryByText(/You have been given 10/)).not.toBeInTheDocument();
    expect(screen.queryByText(/You have been given 30/)).not.toBeInTheDocument();
  });

  it('when the time ran out, the submit failed and time is added, then the student goes on and the new deadline submits', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    try {
      let refuse = true;
      server.use(
        http.post('/api/student/{token}/submit', ({ response }) => {
          if (!refuse) return undefined;
          refuse = false;
          db.submits.push({ idempotencyKey: null, body: {} });
          return response.untyped(outage(503, { message: 'down', code: 'unavailable' }));
        }),
      );
      db.attempt = attemptInProgress({}, 2 / 60);
      const { stream, deadlineAt } = await resume();
      expect(await toast('Failed to submit assessment')).toBeInTheDocument();
      const yes = within(question('Do you have a computer')).getByRole('radio', { name: 'Yes' });
      expect(yes).toBeDisabled();

      stream.emit('attempt', attemptEvent({ deadlineAt: later(deadlineAt, 1), addedMinutes: 1 }));
      expect(await toast('You have been given 1 more minute.')).toBeInTheDocument();
      await waitFor(() => expect(yes).toBeEnabled());
      expect(db.submits).toHaveLength(1);

      await act(() => jest.advanceTimersByTimeAsync(30_000));
      expect(db.submits).toHaveLength(1);
      await act(() => jest.advanceTimersByTimeAsync(32_000));
      await waitFor(() => expect(db.submits).toHaveLength(2));
      expect(await screen.findByRole('heading', { name: 'Congratulations!' })).toBeInTheDocument();
    } finally {
      jest.useRealTimers();
    }
  });

  it('when an administrator ends the attempt, then the completion page waits for the result of the saved answers', async () => {
    db.submitAnswers = 'scoring';
    const { user, stream } = await resume();
    // An answer not yet saved stays kept on the device.
    await user.click(within(question('Do you have a computer')).getByRole('radio', { name: 'Yes' }));
    stream.emit('attempt', attemptEvent({ status: 'closed' }));
    expect(
      await toast('Your attempt was ended. It is being scored from your saved answers.'),
    ).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Calculating your result…' })).toBeInTheDocument();
    expect(where.location?.pathname).toBe(`/assessment/${TOKEN}/complete`);
    expect(stream.closed).toBe(true);
    expect(db.submits).toHaveLength(0);
    expect(window.localStorage.getItem(keptAnswersKey(TOKEN, 'att-1'))).toContain('"yes"');

    await act(async () => {
      db.results = [makeFailedResult({ attemptId: 'att-1' })];
    });
    expect(await screen.findByText(`${seededFailedResult().percentage}%`)).toBeInTheDocument();
  });

  it('when the attempt ends while the student is submitting, then only the submit opens the completion page', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.post('/api/student/{token}/submit', async () => {
        await held;
        return undefined;
      }),
    );
    db.attempt = attemptAnswered();
    const { user, stream } = await resume('Motivation');
    await user.click(screen.getByRole('button', { name: 'Submit Assessment' }));
    await user.click(await screen.findByRole('button', { name: 'Submit now' }));
    stream.emit('attempt', attemptEvent({ status: 'closed' }));
    expect(where.location?.pathname).toBe(`/assessment/${TOKEN}`);
    release();
    expect(await screen.findByRole('heading', { name: 'Congratulations!' })).toBeInTheDocument();
    expect(await toast('Assessment submitted successfully!')).toBeInTheDocument();
    expect(
      screen.queryByText('Your attempt was ended. It is being scored from your saved answers.'),
    ).toBeNull();
  });

  it('when the stream is refused (the service restarting), then the page opens it again and still follows', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    try {
      const { stream, deadlineAt } = await resume();
      // A dropped connection the browser retries by itself: nothing to do.
      stream.fail({ closed: false });
      await act(() => jest.advanceTimersByTimeAsync(3500));
      expect(FakeEventSource.instances).toHaveLength(1);

      stream.fail({ closed: true });
      await act(() => jest.advanceTimersByTimeAsync(3500));
      expect(FakeEventSource.instances).toHaveLength(2);
      const reopened = FakeEventSource.instances[1]!;
      expect(reopened.url).toBe(stream.url);
      reopened.emit('attempt', attemptEvent({ deadlineAt: later(deadlineAt, 10), addedMinutes: 10 }));
      expect(await toast('You have been given 10 more minutes.')).toBeInTheDocument();
    } finally {
      jest.useRealTimers();
    }
  });

  it('when the stream is refused again and again (429: the link is open in too many tabs), then the page opens it again less and less often, never more than once a minute', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    try {
      await resume();
      const gaps: number[] = [];
      for (let i = 0; i < 8; i += 1) {
        FakeEventSource.instances.at(-1)!.fail({ closed: true });
        const refusedAt = Date.now();
        const before = FakeEventSource.instances.length;
        // A second at a time: the delays are whole seconds, and each step renders the countdown once (a busy
        // machine spends seconds of real time on the 270 s of fake time this test walks through).
        while (FakeEventSource.instances.length === before && Date.now() - refusedAt < 120_000) {
          await act(() => jest.advanceTimersByTimeAsync(1_000));
        }
        // Measured on the fake clock, which also moves with real time: rounded to the second the delays are made of.
        gaps.push(Math.round((FakeEventSource.instances.at(-1)!.openedAt - refusedAt) / 1000) * 1000);
      }
      expect(gaps).toEqual([3000, 6000, 12_000, 24_000, 48_000, 60_000, 60_000, 60_000]);
      // The countdown goes on meanwhile: the page keeps its own clock.
      expect(timer()).toBeInTheDocument();
    } finally {
      jest.useRealTimers();
    }
  }, 120_000);

  it('when the stream says the attempt is closed (and the server ends it), then it is not opened again', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    try {
      const { stream } = await resume();
      stream.emit('attempt', attemptEvent({ status: 'closed' }));
      expect(stream.closed).toBe(true);
      await act(() => jest.advanceTimersByTimeAsync(120_000));
      expect(FakeEventSource.instances).toHaveLength(1);
    } finally {
      jest.useRealTimers();
    }
  });

  it('when the test page goes away, then its stream is closed and not opened again', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    try {
      const { unmount, stream } = await resume();
      expect(stream.closed).toBe(false);
      stream.fail({ closed: true });
      unmount();
      await act(() => jest.advanceTimersByTimeAsync(5000));
      expect(FakeEventSource.instances).toHaveLength(1);
      expect(stream.closed).toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });
});
