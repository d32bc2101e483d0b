/*
 * The waiting room's rules as the student's page applies them (docs/waiting-room.md): a student who pressed Start and
 * was answered 202 holds a ticket; the line's public figures say which ticket is being served and how many are
 * admitted a minute. Their place is how many tickets are still before theirs, theirs included.
 */

/** The line's figures as the page last heard them, and when (this device's clock). */
export interface LineFigures {
  serving: number;
  /** Admissions a minute; unknown (no estimate then) when absent or not positive. */
  perMinute: number | null;
  receivedAt: number;
}

/**
 * Between polls the serving number is carried forward by the admission rate, for at most this long after the last
 * figures: polls that fail keep the last figures, and a place that ran on by itself would promise what the line
 * has not done.
 */
export const EXTRAPOLATE_AT_MOST_MS = 10_000;

/** The poll's jitter: every 5 to 9 s at random while the page is seen, every 9 s while the tab is hidden. */
export const POLL_MIN_MS = 5_000;
export const POLL_MAX_MS = 9_000;

export function pollDelay(hidden: boolean, random: () => number = Math.random): number {
  return hidden ? POLL_MAX_MS : POLL_MIN_MS + Math.floor(random() * (POLL_MAX_MS - POLL_MIN_MS));
}

/**
 * Figures older than this are stale: a line stream silent for this long is polled (every 5–9 s until it speaks
 * again), and a tab seen again with figures this old polls at once.
 */
export const FIGURES_STALE_MS = 10_000;

const knownRate = (perMinute: number | null): number | null =>
  perMinute !== null && Number.isFinite(perMinute) && perMinute > 0 ? perMinute : null;

/** The ticket served at `now`, carried forward from the figures by their rate, rounded down (never ahead of it). */
export function servingAt(line: LineFigures, now: number): number {
  const rate = knownRate(line.perMinute);
  if (rate === null) return line.serving;
  const elapsed = Math.min(Math.max(0, now - line.receivedAt), EXTRAPOLATE_AT_MOST_MS);
  return line.serving + Math.floor((rate * elapsed) / 60_000);
}

/** The student's place: 1 is next. Never below 1 before the server has admitted them. */
export const placeInLine = (ticket: number, serving: number): number => Math.max(1, ticket - serving);

/** A ticket is admitted once the line serves it (the server's figure, never the page's extrapolation). */
export const isAdmitted = (ticket: number, line: Pick<LineFigures, 'serving'>): boolean =>
  ticket <= line.serving;

/** How long the wait looks from here: none without a rate, 'under a minute', whole minutes, or whole hours. */
export type WaitEstimate =
  { unit: 'underMinute' } | { unit: 'minutes'; minutes: number } | { unit: 'hours'; hours: number } | null;

export function waitEstimate(place: number, perMinute: number | null): WaitEstimate {
  const rate = knownRate(perMinute);
  if (rate === null) return null;
  const seconds = (place * 60) / rate;
  if (seconds < 60) return { unit: 'underMinute' };
  const minutes = Math.round(seconds / 60);
  return minutes < 90 ? { unit: 'minutes', minutes } : { unit: 'hours', hours: Math.round(minutes / 60) };
}

/*
 * A student who pressed Start and is in line keeps their place over a reload: the page remembers, for this tab only,
 * that it was waiting, and asks Start again (the same token keeps the same ticket). Nothing else calls Start on load.
 */
export const waitingKey = (token: string) => `readiness.waiting.${token}`;

export function rememberWaiting(token: string, ticket: number): void {
  try {
    window.sessionStorage.setItem(waitingKey(token), String(ticket));
  } catch {
    // Storage refused (private mode, full): a reload shows the welcome page and Start again, which keeps the ticket.
  }
}

export function forgetWaiting(token: string): void {
  try {
    window.sessionStorage.removeItem(waitingKey(token));
  } catch {
    // As above: nothing was kept.
  }
}

export function wasWaiting(token: string): boolean {
  try {
    return window.sessionStorage.getItem(waitingKey(token)) !== null;
  } catch {
    return false;
  }
}
