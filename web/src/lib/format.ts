const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

/** Formats an ISO time for tables; absent or unreadable values get the given placeholder. */
export function formatDateTime(iso: string | null | undefined, placeholder = '—'): string {
  if (!iso) return placeholder;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? placeholder : dateTime.format(date);
}

export function formatDate(iso: string | null | undefined, placeholder = '—'): string {
  if (!iso) return placeholder;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? placeholder : dateOnly.format(date);
}

const percentNumber = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/**
 * A percentage as the services give it (docs/scoring.md: one decimal at most, never rounded up to a whole number
 * the score does not reach), printed as it is: '69.5%', '70%'. Never rounded here.
 */
export const formatPercentage = (percentage: number): string => `${percentNumber.format(percentage)}%`;

export function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / (1024 * 1024)).toFixed(1)} MB`;
}

const timeOnly = new Intl.DateTimeFormat('en-US', { timeStyle: 'short' });
const timeWithSeconds = new Intl.DateTimeFormat('en-US', { timeStyle: 'medium' });

/** A moment of today as a clock time ('2:32 PM'). */
export const formatTime = (epochMs: number): string => timeOnly.format(new Date(epochMs));

/** A clock time with its seconds, in the portal's clock ('2:32:05 PM'), for moments that come close together. */
export const formatTimeWithSeconds = (date: Date): string => timeWithSeconds.format(date);
