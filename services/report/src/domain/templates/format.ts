/** Performance bands of SPEC §4: 90, 80 and 70 percent. */
export { performanceLevel } from '@readiness/contracts';

// A formatter is set up once: `toLocaleDateString` with options builds one on every call (about 0.1 ms each).
const DATE = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});
const TIME = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });

/** `23 November 2026`, the same wherever the service runs. */
export function longDate(date: Date): string {
  return DATE.format(date);
}

/** `23 November 2026, 14:05 UTC`. */
export function dateTime(date: Date): string {
  return `${longDate(date)}, ${TIME.format(date)} UTC`;
}

const ORDINAL = new Intl.PluralRules('en', { type: 'ordinal' });
const SUFFIXES: Partial<Record<Intl.LDMLPluralRule, string>> = { one: 'st', two: 'nd', few: 'rd' };

/** `1st`, `2nd`, `3rd`, `4th`, `11th`, `22nd`. */
export const ordinal = (n: number) => `${n}${SUFFIXES[ORDINAL.select(n)] ?? 'th'}`;

/** `1 h 05 min`, `12 min 30 s`. */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (h > 0) return `${h} h ${String(m).padStart(2, '0')} min`;
  return `${m} min ${String(s % 60).padStart(2, '0')} s`;
}
