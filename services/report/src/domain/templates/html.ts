import { escapeHtml, isolateHtml } from '@readiness/kit/i18n';

/**
 * HTML built from data: every interpolated value is escaped unless it is already `SafeHtml` (a fragment built by
 * this same tag, or markup the product itself generated, such as a QR code's SVG). A template cannot forget to
 * escape a field, because the only way to skip escaping is to say so with `trusted`.
 */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Interpolation = SafeHtml | string | number | boolean | null | undefined | readonly Interpolation[];

function render(value: Interpolation): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** Markup the product generated itself (never data): inserted as it is. */
export const trusted = (markup: string) => new SafeHtml(markup);

/**
 * A person's name set apart from what surrounds it (`<bdi>`, escaped): one written right to left, or holding direction
 * controls, cannot reorder the sentence, dates and codes around it.
 */
export const isolatedName = (name: string) => trusted(isolateHtml(name));
