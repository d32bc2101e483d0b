import type { I18n } from '@lingui/core';
import { translator, type Translate } from '../../i18n/i18n';
import { typedFetch } from '../../lib/api-fetch';

/*
 * The check on the welcome page before the clock starts: how long a round trip to the server
 * takes, how far this device's clock is from the server's, and whether this browser can keep answers while
 * offline. It only advises: nothing here stands between the student and Start.
 */

export type CheckStatus = 'ok' | 'warning';

export interface CheckLine {
  status: CheckStatus;
  text: string;
}

/** How many look-ups the connection check times; the median of them is shown. */
export const ROUND_TRIPS = 3;
/*
 * What a round trip (a small look-up, body included; the median of ROUND_TRIPS) says about the connection. Under
 * GOOD_MS answers save before the student notices; up to SLOW_MS they still save well within the autosave's pace,
 * only a moment later; from SLOW_MS on (a second each way and more) saving lags behind answering. The time is
 * classed as the line shows it, in whole milliseconds, so '300 ms' is never called good.
 */
export const GOOD_MS = 300;
export const SLOW_MS = 1000;
/** A look-up that has not answered after this long counts as not reaching the server. */
const ROUND_TRIP_TIMEOUT_MS = 10_000;
/** A clock this close to the server's is in step: the offset itself is only measured to about a round trip. */
const IN_STEP_MS = 30_000;

/** The middle value of an odd count (one slow look-up does not make the connection slow); 0 of none. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** One timed `GET /api/student/{token}`, body included; rejects on a failure, an error answer or a timeout. */
async function roundTrip(token: string, stop: AbortSignal): Promise<number> {
  if (stop.aborted) throw new Error('The check was stopped');
  const controller = new AbortController();
  const abort = () => controller.abort();
  stop.addEventListener('abort', abort);
  const timer = setTimeout(abort, ROUND_TRIP_TIMEOUT_MS);
  try {
    const started = performance.now();
    const response = await typedFetch('/api/student/{token}', 'get', {
      path: { token },
      init: { cache: 'no-store', signal: controller.signal },
    });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`The server answered ${response.status}`);
    return performance.now() - started;
  } finally {
    clearTimeout(timer);
    stop.removeEventListener('abort', abort);
  }
}

/**
 * The median round trip of a few small look-ups made one after the other, so they do not compete with each
 * other; null when one of them did not reach the server.
 */
export async function measureConnection(token: string, stop: AbortSignal): Promise<number | null> {
  const times: number[] = [];
  try {
    for (let i = 0; i < ROUND_TRIPS; i += 1) times.push(await roundTrip(token, stop));
  } catch {
    return null;
  }
  return median(times);
}

export function connectionLine(i18n: I18n, ms: number | null): CheckLine {
  const t = translator(i18n);
  if (ms === null) return { status: 'warning', text: t('check.connectionUnreachable') };
  const shown = Math.round(ms);
  if (shown < SLOW_MS) {
    const values = { ms: i18n.number(shown, { maximumFractionDigits: 0, useGrouping: false }) };
    return {
      status: 'ok',
      text: shown < GOOD_MS ? t('check.connectionGood', values) : t('check.connectionFair', values),
    };
  }
  const seconds = i18n.number(ms / 1000, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return { status: 'warning', text: t('check.connectionSlow', { seconds }) };
}

/** How far apart the clocks are, in whole minutes (at least one), or in hours from two hours on. */
function span(t: Translate, ms: number, ahead: boolean): string {
  const minutes = Math.max(1, Math.round(ms / 60_000));
  if (minutes >= 120) {
    const hours = Math.round(minutes / 60);
    return ahead ? t('check.clockAheadHours', { hours }) : t('check.clockBehindHours', { hours });
  }
  return ahead ? t('check.clockAheadMinutes', { minutes }) : t('check.clockBehindMinutes', { minutes });
}

/**
 * `offset` is how far the server's clock is ahead of this device's (`clockOffset`). The timer already counts
 * by the server's clock, so a device that is off needs nothing from the student: the line reassures.
 */
export function clockLine(i18n: I18n, offset: number): CheckLine {
  const t = translator(i18n);
  if (Math.abs(offset) < IN_STEP_MS) return { status: 'ok', text: t('check.clockInStep') };
  return { status: 'ok', text: span(t, Math.abs(offset), offset < 0) };
}

const PROBE_KEY = 'readiness.storage-check';

/** Whether this browser's storage can be written and read back: private modes may refuse or throw. */
export function canKeepAnswersOffline(): boolean {
  try {
    window.localStorage.setItem(PROBE_KEY, PROBE_KEY);
    const kept = window.localStorage.getItem(PROBE_KEY) === PROBE_KEY;
    window.localStorage.removeItem(PROBE_KEY);
    return kept;
  } catch {
    return false;
  }
}

export function offlineLine(i18n: I18n, kept: boolean): CheckLine {
  const t = translator(i18n);
  return kept
    ? { status: 'ok', text: t('check.offlineKept') }
    : { status: 'warning', text: t('check.offlineNotKept') };
}
