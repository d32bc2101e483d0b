import type { I18n } from '@lingui/core';

/*
 * Dates and lists in the active language through `Intl`; numbers inside messages are formatted by the
 * messages themselves (`{n, number}`, plurals).
 */

/**
 * 'Mar 1, 2026', '1 mars 2026', '1 مارس 2026': the month by name (Arabic's medium style is all digits);
 * absent or unreadable values get the placeholder.
 */
export function formatDay(i18n: I18n, iso: string | null | undefined, placeholder = '—'): string {
  if (!iso) return placeholder;
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? placeholder
    : i18n.date(date, { day: 'numeric', month: 'short', year: 'numeric' });
}

/**
 * '2, 4 and 7', '2, 4 et 7', '2 و4 و7'. English keeps the lists it had before it became one language of several:
 * no comma before 'and' (en-GB's list style; its dates stay en-US's).
 */
export function formatList(i18n: I18n, items: string[]): string {
  const locales = i18n.locale === 'en' ? ['en-GB'] : (i18n.locales ?? i18n.locale);
  return new Intl.ListFormat(locales, { type: 'conjunction' }).format(items);
}
