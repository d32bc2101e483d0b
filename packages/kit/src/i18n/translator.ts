import { setupI18n, type I18n, type Messages } from '@lingui/core';
import { compileMessageOrThrow, type CompiledMessage } from '@lingui/message-utils/compileMessage';

/**
 * One language's messages by id, in ICU MessageFormat (`Hello {name},`, `{n, plural, one {…} other {…}}`). A
 * message may emphasise a part with `<strong>…</strong>`: kept in HTML, dropped from plain text.
 */
export type Catalogue<Id extends string = string> = Readonly<Record<Id, string>>;

/** Every language's catalogue; English defines the ids, and stands in for a message another one lacks. */
export type Catalogues<Id extends string = string> = { readonly en: Catalogue<Id> } & Readonly<
  Record<string, Partial<Catalogue<Id>>>
>;

/**
 * A value set apart from the sentence it stands in: a person's name, which may be written right to left (or hold
 * direction controls) and must not turn its surroundings around. Plain text wraps it in FIRST STRONG ISOLATE …
 * POP DIRECTIONAL ISOLATE, HTML in `<bdi>`.
 */
export interface Isolated {
  readonly isolated: string;
}
export const isolated = (text: string): Isolated => ({ isolated: text });

const FIRST_STRONG_ISOLATE = '\u2068';
const POP_DIRECTIONAL_ISOLATE = '\u2069';
/** Text set apart from the plain text around it (mails' text part, subjects, log-free messages). */
export const isolateText = (text: string) => `${FIRST_STRONG_ISOLATE}${text}${POP_DIRECTIONAL_ISOLATE}`;
/** Text escaped and set apart from the HTML around it. */
export const isolateHtml = (text: string) => `<bdi>${escapeHtml(text)}</bdi>`;

/** A message's arguments: text, text set apart (`isolated`), or a number for `plural` and `#`. */
export type MessageValues = Readonly<Record<string, string | number | Isolated>>;

export interface Translator<Id extends string> {
  /** The language the messages are in: the one asked for, or English when there is no catalogue for it. */
  readonly language: string;
  /** The locale dates and numbers are written in (`ar-u-nu-latn`: Arabic with Western digits). */
  readonly locale: string;
  readonly dir: 'ltr' | 'rtl';
  /** The message as plain text, its emphasis dropped. */
  text(id: Id, values?: MessageValues): string;
  /** The message as HTML: the catalogue's text escaped but for its `<strong>`, every value escaped. */
  html(id: Id, values?: MessageValues): string;
  /** The message cut where its emphasis starts and ends, for a writer that sets each run in its own font. */
  runs(id: Id, values?: MessageValues): Array<{ text: string; strong: boolean }>;
  date(value: Date, options: Intl.DateTimeFormatOptions): string;
  number(value: number, options?: Intl.NumberFormatOptions): string;
}

export interface TranslationOptions {
  /** A locale other than `<language>-u-nu-latn` for a language's dates and numbers, e.g. `{ en: 'en-GB' }`. */
  locales?: Readonly<Record<string, string>>;
}

/** Languages written right to left (by their ISO 639-1 codes). */
const RIGHT_TO_LEFT = new Set(['ar', 'dv', 'fa', 'he', 'ps', 'sd', 'ug', 'ur', 'yi']);

export const STRONG = /<\/?strong>/g;

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};
/** Text made safe inside HTML, in an element or a quoted attribute: the mails' and the certificates' one escaper. */
export const escapeHtml = (s: string) => s.replace(/[&<>"'`]/g, (c) => ESCAPES[c]!);
const UNESCAPES = Object.fromEntries(Object.entries(ESCAPES).map(([c, e]) => [e, c]));
const unescapeHtml = (s: string) => s.replace(/&(?:amp|lt|gt|quot|#39|#96);/g, (e) => UNESCAPES[e]!);

/** The literal text of a compiled message, each part changed by `change` (arguments and `#` stay as they are). */
function mapLiterals(message: CompiledMessage, change: (text: string) => string): CompiledMessage {
  return message.map((token) => {
    if (typeof token === 'string') return token === '#' ? token : change(token);
    const [name, type, format] = token;
    if (type !== 'plural' && type !== 'selectordinal' && type !== 'select') return token;
    const cases = Object.fromEntries(
      Object.entries(format as Record<string, CompiledMessage | number | undefined>).map(([key, value]) => [
        key,
        Array.isArray(value) ? mapLiterals(value, change) : value,
      ]),
    );
    return [name, type, cases];
  });
}

/** Lingui's translator of one catalogue, its messages compiled once (a malformed one throws here, at start). */
function linguiOf(catalogue: Partial<Catalogue>, locale: string, language: string, html: boolean): I18n {
  const messages: Messages = {};
  for (const [id, message] of Object.entries(catalogue)) {
    if (message === undefined) continue;
    const compiled = compileMessageOrThrow(html ? message : message.replace(STRONG, ''));
    messages[id] = html
      ? mapLiterals(compiled, (text) => escapeHtml(text).replace(/&lt;(\/?strong)&gt;/g, '<$1>'))
      : compiled;
  }
  return setupI18n({ locale: language, locales: [locale], messages: { [language]: messages } });
}

/**
 * Lingui decodes `\u0041` and `\x41` in what it has written, values included: a value's backslashes are kept
 * out of its sight (a name cannot turn into markup in a mail), and put back after.
 */
const BACKSLASH = '\ufdd0';

function written(value: string | Isolated, html: boolean): string {
  if (typeof value === 'string') return html ? escapeHtml(value) : value;
  return html ? isolateHtml(value.isolated) : isolateText(value.isolated);
}

function write(i18n: I18n, id: string, values: MessageValues = {}, html: boolean): string {
  const guarded = Object.fromEntries(
    Object.entries(values).map(([name, value]) => [
      name,
      typeof value === 'number' ? value : written(value, html).replace(/\\/g, BACKSLASH),
    ]),
  );
  return i18n._(id, guarded).replaceAll(BACKSLASH, '\\');
}

function translatorOf<Id extends string>(
  catalogue: Partial<Catalogue<Id>>,
  language: string,
  locale: string,
  fallback: Translator<Id> | undefined,
): Translator<Id> {
  const plain = linguiOf(catalogue, locale, language, false);
  const rich = linguiOf(catalogue, locale, language, true);
  const formats = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();
  const formatter = <F>(kind: string, options: object | undefined, make: () => F): F => {
    const key = `${kind} ${JSON.stringify(options)}`;
    let format = formats.get(key);
    if (!format) {
      format = make() as Intl.DateTimeFormat | Intl.NumberFormat;
      formats.set(key, format);
    }
    return format as F;
  };
  const has = (id: Id) => catalogue[id] !== undefined;
  const self: Translator<Id> = {
    language,
    locale,
    dir: RIGHT_TO_LEFT.has(language) ? 'rtl' : 'ltr',
    text: (id, values) =>
      has(id) || !fallback ? write(plain, id, values, false) : fallback.text(id, values),
    html: (id, values) => (has(id) || !fallback ? write(rich, id, values, true) : fallback.html(id, values)),
    runs(id, values) {
      return self
        .html(id, values)
        .split(/(<\/?strong>)/)
        .reduce<{ runs: Array<{ text: string; strong: boolean }>; strong: boolean }>(
          (acc, part) => {
            if (part === '<strong>' || part === '</strong>') return { ...acc, strong: part === '<strong>' };
            const text = part
              .replaceAll('<bdi>', FIRST_STRONG_ISOLATE)
              .replaceAll('</bdi>', POP_DIRECTIONAL_ISOLATE);
            if (text) acc.runs.push({ text: unescapeHtml(text), strong: acc.strong });
            return acc;
          },
          { runs: [], strong: false },
        ).runs;
    },
    date: (value, options) =>
      formatter('date', options, () => new Intl.DateTimeFormat(locale, options)).format(value),
    number: (value, options) =>
      formatter('number', options, () => new Intl.NumberFormat(locale, options)).format(value),
  };
  return self;
}

/**
 * The translators of a set of catalogues, made once: `translations(catalogues)('fr')` writes French; a language
 * without a catalogue (empty, unknown) gets English, and a message a catalogue lacks is English's. Dates and
 * numbers are the language's own, with Western digits unless `options.locales` says otherwise.
 */
export function translations<Id extends string>(
  catalogues: Catalogues<Id>,
  options: TranslationOptions = {},
): (language: string | null | undefined) => Translator<Id> {
  const localeOf = (language: string) =>
    options.locales?.[language] ?? new Intl.Locale(language, { numberingSystem: 'latn' }).toString();
  const english = translatorOf(catalogues.en, 'en', localeOf('en'), undefined);
  const byLanguage = new Map<string, Translator<Id>>([['en', english]]);
  for (const [language, catalogue] of Object.entries(catalogues)) {
    if (language !== 'en') {
      byLanguage.set(language, translatorOf(catalogue, language, localeOf(language), english));
    }
  }
  return (language) => byLanguage.get(language ?? '') ?? english;
}
