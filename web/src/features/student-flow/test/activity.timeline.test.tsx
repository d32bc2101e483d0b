import { act, screen, waitFor, within } from '@testing-library/react';
import { renderStudentApp } from '../../../testing/render-student';
import { ACTIVITY_BATCH, ACTIVITY_DELAY_MS, ACTIVITY_KEPT, ActivityReporter, DEVICE_KEY } from '../activity';
import type { ActivityEntry } from '../api/types';
import { attemptAnswered, attemptInProgress, db, TOKEN, useStudentServer } from './student-server';

useStudentServer();

afterEach(() => {
  Reflect.deleteProperty(document, 'visibilityState');
  jest.restoreAllMocks();
});

const REPORT_WAIT = { timeout: ACTIVITY_DELAY_MS + 3000 };
const DEVICE_ID = /^[A-Za-z0-9_-]{8,64}$/;
const question = (text: string) => screen.getByRole('group', { name: new RegExp(text) });
/** Every entry the server recorded, in the order it got them. */
const recorded = () => db.activity.filter((r) => r.status === 204).flatMap((r) => r.entries);
const recordedOf = <K extends ActivityEntry['kind']>(kind: K) =>
  recorded().filter((e): e is Extract<ActivityEntry, { kind: K }> => e.kind === kind);
/** How far an ISO time is from the server's clock now, in milliseconds. */
const fromServerNow = (iso: string) => Math.abs(Date.parse(iso) - (Date.now() + db.clockAhead));

async function resume(attempt = attemptInProgress({ seq: 3 })) {
  db.attempt = attempt;
  const app = renderStudentApp(`/assessment/${TOKEN}`);
  await screen.findByRole('heading', { level: 2, name: 'Technology' });
  // The device is registered and the first section reported before a test goes on.
  await waitFor(() => expect(recordedOf('section_reached')).toHaveLength(1), REPORT_WAIT);
  return app;
}

function setVisibility(state: 'hidden' | 'visible') {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  act(() => {
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

/** The page hidden for `ms` by this device's clock, then shown again. */
function awayFor(ms: number) {
  const hiddenAt = Date.now();
  const now = jest.spyOn(Date, 'now').mockReturnValue(hiddenAt);
  setVisibility('hidden');
  now.mockReturnValue(hiddenAt + ms);
  setVisibility('visible');
  now.mockRestore();
  return hiddenAt;
}

function goOfflineAndBack() {
  act(() => {
    window.dispatchEvent(new Event('offline'));
  });
  act(() => {
    window.dispatchEvent(new Event('online'));
  });
}

describe("The attempt's activity", () => {
  it('when the welcome page shows, then nothing is reported; once started, the device is registered with no entries', async () => {
    const { user } = renderStudentApp(`/assessment/${TOKEN}`);
    await user.click(await screen.findByRole('button', { name: 'Start Assessment' }));
    await screen.findByRole('heading', { level: 2, name: 'Technology' });
    await waitFor(() => expect(db.activity.length).toBeGreaterThan(0));
    const [first] = db.activity;
    expect(first).toMatchObject({ attemptId: 'att-1', entries: [], status: 204 });
    expect(first!.deviceId).toMatch(DEVICE_ID);
    expect(window.localStorage.getItem(DEVICE_KEY)).toBe(first!.deviceId);
  });

  it('when a resumed attempt opens again after a reload, then it registers the same device again at once', async () => {
    const { unmount } = await resume();
    const device = db.activity[0]!.deviceId;
    expect(db.activity[0]!.entries).toEqual([]);
    unmount();
    db.activity = [];
    await resume();
    expect(db.activity[0]).toMatchObject({ deviceId: device, entries: [] });
    expect(db.activity.every((r) => r.deviceId === device)).toBe(true);
  });

  it('when the device has no storage, then an id kept in the page is sent instead', async () => {
    jest.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new Error('SecurityError');
    });
    await resume();
    expect(db.activity[0]!.deviceId).toMatch(DEVICE_ID);
    expect(new Set(db.activity.map((r) => r.deviceId)).size).toBe(1);
  });

  it('when a section is shown, then it is reported as reached by the server clock, the first one included', async () => {
    db.clockAhead = 7 * 60_000;
    const { user } = await resume();
    const [first] = recordedOf('section_reached');
    expect(first).toMatchObject({ sectionId: 1 });
    expect(fromServerNow(first!.at)).toBeLessThan(5000);
    await user.click(within(question('Do you have a computer')).getByRole('radio', { name: 'Yes' }));
    await user.click(screen.getByRole('button', { name: 'Next Section' }));
    await screen.findByRole('heading', { level: 2, name: 'Study Habits' });
    await waitFor(
      () => expect(recordedOf('section_reached').map((e) => e.sectionId)).toEqual([1, 2]),
      REPORT_WAIT,
    );
    expect(fromServerNow(recordedOf('section_reached')[1]!.at)).toBeLessThan(5000);
  });

  it('when the page is hidden and shown again, then the time away is reported at once with when it began', async () => {
    db.clockAhead = -3 * 60_000;
    await resume();
    const hiddenAt = awayFor(45_400);
    await waitFor(() => expect(recordedOf('page_hidden')).toHaveLength(1));
    const [away] = recordedOf('page_hidden');
    expect(away).toEqual({ kind: 'page_hidden', at: expect.any(String), seconds: 45 });
    // When it was hidden, by the server's clock (the offset is measured to within a round trip).
    expect(Math.abs(Date.parse(away!.at) - (hiddenAt + db.clockAhead))).toBeLessThan(1000);
  });

  it('when the connection drops and returns, then the time offline is reported', async () => {
    await resume();
    const wentAt = Date.now();
    goOfflineAndBack();
    await waitFor(() => expect(recordedOf('offline')).toHaveLength(1));
    const [offline] = recordedOf('offline');
    expect(offline!.seconds).toBe(0);
    expect(Math.abs(Date.parse(offline!.at) - wentAt)).toBeLessThan(2000);
  });

  it('when text is pasted into an answer, then its question and length are reported; an empty paste or one outside an answer is not', async () => {
    const { user } = await resume();
    await user.click(within(question('How fast is your internet')).getByRole('radio', { name: 'Fast' }));
    await user.paste('');
    await user.paste('Fibre at 100 Mbps');
    act(() => (document.activeElement as HTMLElement).blur());
    await user.paste('outside any answer');
    await waitFor(() => expect(recordedOf('pasted')).toHaveLength(1), REPORT_WAIT);
    expect(recordedOf('pasted')[0]).toMatchObject({ kind: 'pasted', questionId: 'q2', chars: 17 });
    // Nothing else was pasted: the empty and the outside one are never sent.
    await new Promise((r) => setTimeout(r, ACTIVITY_DELAY_MS + 500));
    expect(recordedOf('pasted')).toHaveLength(1);
  });

  it('when the page is closed, then what is queued leaves in a request that outlives it, the time hidden so far included', async () => {
    const { user } = await resume();
    await user.click(within(question('Do you have a computer')).getByRole('radio', { name: 'No' }));
    await user.paste('abc');
    const hiddenAt = Date.now();
    const now = jest.spyOn(Date, 'now').mockReturnValue(hiddenAt);
    setVisibility('hidden');
    now.mockReturnValue(hiddenAt + 12_000);
    act(() => {
      window.dispatchEvent(new Event('pagehide'));
    });
    now.mockRestore();
    await waitFor(() => expect(recordedOf('page_hidden')).toHaveLength(1));
    expect(recordedOf('pasted')).toHaveLength(1);
    const kept = db.activity.filter((r) => r.keepalive).flatMap((r) => r.entries);
    expect(kept).toContainEqual(expect.objectContaining({ kind: 'page_hidden', seconds: 12 }));
    expect(kept).toContainEqual(expect.objectContaining({ kind: 'pasted', questionId: 'q1', chars: 3 }));
  });

  it('when the server refuses a report (the attempt closed), then its entries are dropped, never sent again', async () => {
    await resume();
    db.activityAnswer = 409;
    awayFor(5000);
    await waitFor(() => expect(db.activity.at(-1)).toMatchObject({ status: 409 }));
    expect(db.activity.at(-1)!.entries).toEqual([expect.objectContaining({ kind: 'page_hidden' })]);
    db.activityAnswer = 'record';
    goOfflineAndBack();
    await waitFor(() => expect(recordedOf('offline')).toHaveLength(1));
    expect(db.activity.at(-1)!.entries).toEqual([expect.objectContaining({ kind: 'offline' })]);
    expect(recordedOf('page_hidden')).toHaveLength(0);
  });

  it('when a report cannot reach the server, then its entries are kept and go with the next one', async () => {
    await resume();
    db.activityAnswer = 'offline';
    awayFor(8000);
    await new Promise((r) => setTimeout(r, 200));
    expect(recordedOf('page_hidden')).toHaveLength(0);
    db.activityAnswer = 'record';
    goOfflineAndBack();
    await waitFor(() => expect(recordedOf('offline')).toHaveLength(1));
    expect(db.activity.at(-1)!.entries).toEqual([
      expect.objectContaining({ kind: 'page_hidden', seconds: 8 }),
      expect.objectContaining({ kind: 'offline' }),
    ]);
  });

  it('when the server answers 503 or 429, then the entries are kept as well', async () => {
    await resume();
    db.activityAnswer = 503;
    awayFor(3000);
    await waitFor(() => expect(db.activity.at(-1)).toMatchObject({ status: 503 }));
    db.activityAnswer = 429;
    goOfflineAndBack();
    await waitFor(() => expect(db.activity.at(-1)).toMatchObject({ status: 429 }));
    expect(db.activity.at(-1)!.entries.map((e) => e.kind)).toEqual(['page_hidden', 'offline']);
    db.activityAnswer = 'record';
    awayFor(1000);
    await waitFor(() => expect(recordedOf('page_hidden')).toHaveLength(2));
    expect(recorded().map((e) => e.kind)).toEqual([
      'section_reached',
      'page_hidden',
      'offline',
      'page_hidden',
    ]);
  });
});

describe('Reporting activity', () => {
  const entry = (i: number): ActivityEntry => ({
    kind: 'section_reached',
    at: new Date(Date.UTC(2026, 2, 2, 10, 0, i)).toISOString(),
    sectionId: i,
  });

  it('when many entries wait, then they go in batches of 50, and past 200 the oldest are dropped', async () => {
    db.attempt = attemptInProgress();
    db.activityAnswer = 'offline';
    const reporter = new ActivityReporter({ token: TOKEN, attemptId: 'att-1', deviceId: 'device-0001' });
    reporter.start();
    for (let i = 1; i <= 250; i += 1) reporter.record(entry(i));
    await reporter.flush();
    expect(db.activity).toHaveLength(0);
    db.activityAnswer = 'record';
    await reporter.flush();
    reporter.stop();
    expect(db.activity.map((r) => r.entries.length)).toEqual([
      ACTIVITY_BATCH,
      ACTIVITY_BATCH,
      ACTIVITY_BATCH,
      ACTIVITY_BATCH,
    ]);
    expect(recorded()).toHaveLength(ACTIVITY_KEPT);
    expect(recorded()[0]).toEqual(entry(51));
    expect(recorded().at(-1)).toEqual(entry(250));
  });
});

describe('Submitting while activity is reported', () => {
  /** Resumes an attempt whose every required answer is saved, on its last section. */
  async function readyToSubmit() {
    db.attempt = attemptAnswered();
    const app = renderStudentApp(`/assessment/${TOKEN}`);
    await screen.findByRole('heading', { level: 2, name: 'Motivation' });
    return app;
  }

  async function submit(user: ReturnType<typeof renderStudentApp>['user']) {
    await user.click(screen.getByRole('button', { name: 'Submit Assessment' }));
    await user.click(await screen.findByRole('button', { name: 'Submit now' }));
  }

  it('when Submit is pressed, then what is queued is reported first, while the attempt is still open', async () => {
    const { user } = await readyToSubmit();
    await waitFor(() => expect(recordedOf('section_reached')).toHaveLength(1), REPORT_WAIT);
    await user.click(within(question('Are you ready to start')).getByRole('radio', { name: 'Yes' }));
    await user.paste('ready');
    await submit(user);
    expect(await screen.findByRole('heading', { name: 'Congratulations!' })).toBeInTheDocument();
    // After the submit the stand-in closes the attempt (409): this entry was taken before it.
    expect(recordedOf('pasted')).toEqual([expect.objectContaining({ questionId: 'q5', chars: 5 })]);
    expect(db.submits).toHaveLength(1);
  });

  it('when the activity endpoint fails, then the submit still goes and nothing is said about it', async () => {
    db.activityAnswer = 503;
    const { user } = await readyToSubmit();
    await user.paste('x');
    await submit(user);
    expect(await screen.findByRole('heading', { name: 'Congratulations!' })).toBeInTheDocument();
    expect(db.submits).toHaveLength(1);
    expect(screen.queryByText('Failed to submit assessment')).not.toBeInTheDocument();
    expect(db.activity.every((r) => r.status === 503)).toBe(true);
  });

  it('when the activity endpoint never answers, then the submit waits for it at most a moment', async () => {
    db.activityAnswer = 'hang';
    const { user } = await readyToSubmit();
    await submit(user);
    const pressed = Date.now();
    await waitFor(() => expect(db.submits).toHaveLength(1), { timeout: 4000 });
    expect(Date.now() - pressed).toBeLessThan(2500);
    expect(await screen.findByRole('heading', { name: 'Congratulations!' })).toBeInTheDocument();
  });
});
