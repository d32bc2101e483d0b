import { act, screen } from '@testing-library/react';
import { renderStudentApp } from '../../../testing/render-student';
import { createStudentI18n } from '../../../i18n/i18n';
import { clockOffset, crossedMark, formatCountdown, timeLeft } from '../clock';
import { attemptInProgress, db, TOKEN, useStudentServer } from './student-server';

useStudentServer();

describe('Countdown formatting', () => {
  it.each([
    [0, '0:00'],
    [999, '0:01'],
    [59_000, '0:59'],
    [60_000, '1:00'],
    [9 * 60_000 + 5_000, '9:05'],
    [3_600_000, '60:00'],
    [3_600_001, '1:00:01'],
    [2 * 3_600_000 + 3 * 60_000 + 4_000, '2:03:04'],
  ])('when %i ms are left, then the timer reads %s', (ms, text) => {
    expect(formatCountdown(ms)).toBe(text);
  });
});

describe('Server clock', () => {
  it('when the server clock is ahead of the device, then the time left follows the server', () => {
    const offset = clockOffset('2026-03-01T10:00:00.000Z', Date.parse('2026-03-01T09:00:00.000Z'));
    expect(offset).toBe(3_600_000);
    const deviceNow = Date.parse('2026-03-01T09:00:00.000Z');
    expect(timeLeft('2026-03-01T10:30:00.000Z', offset, deviceNow)).toBe(30 * 60_000);
    expect(timeLeft('2026-03-01T09:30:00.000Z', offset, deviceNow)).toBe(0);
  });

  it('when the time left crosses 10, 5 and 1 minutes, then each is announced once and nothing else', () => {
    expect(crossedMark(10 * 60_000 + 500, 10 * 60_000 - 500)).toBe(10);
    expect(crossedMark(9 * 60_000, 8 * 60_000)).toBeNull();
    expect(crossedMark(5 * 60_000 + 1, 5 * 60_000)).toBe(5);
    expect(crossedMark(61_000, 59_000)).toBe(1);
    // A tab asleep across two marks speaks the latest one only.
    expect(crossedMark(11 * 60_000, 4 * 60_000)).toBe(5);
    const english = createStudentI18n();
    expect(english._('timer.remaining', { minutes: 1 })).toBe('1 minute remaining');
    expect(english._('timer.remaining', { minutes: 10 })).toBe('10 minutes remaining');
  });
});

describe('Test screen timer', () => {
  it('when the device clock is an hour behind the server, then the timer shows the time the server allows', async () => {
    db.clockAhead = 3_600_000;
    db.attempt = attemptInProgress({}, 25);
    renderStudentApp(`/assessment/${TOKEN}`);
    const timer = await screen.findByRole('timer', { name: 'Time remaining' });
    expect(timer.textContent).toMatch(/^2[45]:\d\d$/);
  });

  it('when more than an hour is left, then the timer shows hours', async () => {
    db.attempt = attemptInProgress({}, 90);
    renderStudentApp(`/assessment/${TOKEN}`);
    const timer = await screen.findByRole('timer', { name: 'Time remaining' });
    expect(timer.textContent).toMatch(/^1:(29|30):\d\d$/);
  });

  it('when the clock passes 10 minutes left, then the live region says so once, not every second', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    try {
      db.attempt = attemptInProgress({}, 10 + 2 / 60);
      renderStudentApp(`/assessment/${TOKEN}`);
      await screen.findByRole('timer');
      const live = document.querySelector('[aria-live="polite"]:not(.Toastify *)')!;
      expect(live.textContent).toBe('');
      await act(() => jest.advanceTimersByTimeAsync(3000));
      expect(live.textContent).toBe('10 minutes remaining');
      await act(() => jest.advanceTimersByTimeAsync(5000));
      expect(live.textContent).toBe('10 minutes remaining');
    } finally {
      jest.useRealTimers();
    }
  });
});
