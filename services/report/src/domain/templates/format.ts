/** Performance bands of SPEC §4: 90, 80 and 70 percent. */
export { performanceLevel } from '@readiness/contracts';

/** `23 November 2026`, the same wherever the service runs. */
export function longDate(date: Date): string {
  return date.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** `23 November 2026, 14:05 UTC`. */
export function dateTime(date: Date): string {
  const time = date.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });
  return `${longDate(date)}, ${time} UTC`;
}

/** `1 h 05 min`, `12 min 30 s`. */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (h > 0) return `${h} h ${String(m).padStart(2, '0')} min`;
  return `${m} min ${String(s % 60).padStart(2, '0')} s`;
}
