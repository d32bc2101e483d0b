import { catalogueProblems, translations, type Catalogue } from './index';

const en = {
  greeting: 'Hello {name},',
  passed: 'You passed <strong>{title}</strong> with <strong>{score}</strong>!',
  minutes: '{n, plural, one {# minute} other {# minutes}}',
  titled: 'Take {titled, select, yes {the {title}} other {the assessment}}.',
  onlyEnglish: 'Only in English',
} as const;
type Id = keyof typeof en;

const fr: Partial<Catalogue<Id>> = {
  greeting: 'Bonjour {name},',
  passed: 'Vous avez réussi <strong>{title}</strong> avec <strong>{score}</strong>\u00a0!',
  minutes: '{n, plural, one {# minute} other {# minutes}}',
  titled: 'Passez {titled, select, yes {«\u00a0{title}\u00a0»} other {l’évaluation}}.',
};
const ar: Partial<Catalogue<Id>> = {
  greeting: 'مرحبًا {name}،',
  minutes:
    '{n, plural, zero {# دقيقة} one {دقيقة واحدة} two {دقيقتان} few {# دقائق} many {# دقيقة} other {# دقيقة}}',
};

const translator = translations({ en, fr, ar }, { locales: { en: 'en-GB' } });

describe('a translator', () => {
  test('when a message is asked in a language with a catalogue, then it is written in it with its values', () => {
    const t = translator('fr');
    expect(t.text('greeting', { name: 'Zoë' })).toBe('Bonjour Zoë,');
    expect(t.text('titled', { titled: 'yes', title: 'Readiness' })).toBe('Passez «\u00a0Readiness\u00a0».');
    expect(t.text('titled', { titled: 'no', title: '' })).toBe('Passez l’évaluation.');
    expect(t.text('minutes', { n: 1 })).toBe('1 minute');
    expect(translator('ar').text('minutes', { n: 2 })).toBe('دقيقتان');
    expect(translator('ar').text('minutes', { n: 11 })).toBe('11 دقيقة');
  });

  test('when the language is empty, unknown or has no such message, then English stands in', () => {
    expect(translator('').text('greeting', { name: 'Ada' })).toBe('Hello Ada,');
    expect(translator(undefined).language).toBe('en');
    expect(translator('xx').language).toBe('en');
    expect(translator('fr').text('onlyEnglish')).toBe('Only in English');
    expect(translator('ar').text('passed', { title: 'T', score: '92%' })).toBe('You passed T with 92%!');
  });

  test('when a message emphasises a part, then HTML keeps it and escapes every value, plain text drops it, and runs tell it apart', () => {
    const t = translator('en');
    const values = { title: '<b>Q&A</b>', score: '92%' };
    expect(t.html('passed', values)).toBe(
      'You passed <strong>&lt;b&gt;Q&amp;A&lt;/b&gt;</strong> with <strong>92%</strong>!',
    );
    expect(t.text('passed', values)).toBe('You passed <b>Q&A</b> with 92%!');
    expect(t.runs('passed', values)).toEqual([
      { text: 'You passed ', strong: false },
      { text: '<b>Q&A</b>', strong: true },
      { text: ' with ', strong: false },
      { text: '92%', strong: true },
      { text: '!', strong: false },
    ]);
  });

  test('when a value holds an escape sequence, then it is written as it is, never decoded into markup', () => {
    const name = 'Ada \\u003cscript\\u003e \\x41';
    expect(translator('en').text('greeting', { name })).toBe(`Hello ${name},`);
    expect(translator('fr').html('greeting', { name })).toBe(`Bonjour ${name},`);
  });

  test('when dates and numbers are written, then they are the locale’s, Arabic with Western digits, and right to left', () => {
    const when = new Date('2026-11-24T10:00:00Z');
    const long = { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' } as const;
    expect(translator('en').date(when, long)).toBe('24 November 2026');
    expect(translator('fr').date(when, long)).toBe('24 novembre 2026');
    expect(translator('ar').date(when, long)).toBe('24 نوفمبر 2026');
    expect(translator('ar').number(0.92, { style: 'percent' })).toMatch(/^92\u200e?%\u200e?$/);
    expect(translator('ar')).toMatchObject({ locale: 'ar-u-nu-latn', dir: 'rtl' });
    expect(translator('fr')).toMatchObject({ locale: 'fr-u-nu-latn', dir: 'ltr' });
  });
});

describe('catalogue problems', () => {
  test('when every catalogue has English’s messages with English’s arguments, then there are none', () => {
    expect(
      catalogueProblems({
        en: { a: 'Hi {name}', b: '{n, plural, one {#} other {#}}' },
        fr: { a: 'Salut {name}', b: '{n, plural, one {#} many {#} other {#}}' },
      }),
    ).toEqual([]);
  });

  test('when a catalogue misses a message English has, or has one English has not, then each is named', () => {
    expect(catalogueProblems({ en: { a: 'A', b: 'B' }, es: { a: 'A', c: 'C' } })).toEqual([
      'es b: missing (English has it)',
      'es c: not a message English has',
    ]);
  });

  test('when a translation renames, drops or retypes an argument, or does not parse, then it is named', () => {
    const problems = catalogueProblems({
      en: { a: 'Hello {name}', b: '{n, plural, one {# day} other {# days}}', c: 'Go {where}', d: 'Hi' },
      pt: { a: 'Olá {nome}', b: '{n} dias', c: 'Vá {where', d: 'Oi {extra}' },
    });
    expect(problems).toEqual([
      "pt a: its arguments {nome} are not English's {name}",
      "pt b: its arguments {n} are not English's {n:plural}",
      expect.stringMatching(/^pt c: does not parse/),
      "pt d: its arguments {extra} are not English's {}",
    ]);
  });

  test('when a plural lacks "other" or has a category its language has not, or a select has other cases, then it is named', () => {
    expect(
      catalogueProblems({
        en: { a: '{n, plural, one {#} other {#}}', b: '{s, select, yes {Y} other {N}}' },
        fr: { a: '{n, plural, one {#} two {#}}', b: '{s, select, oui {O} other {N}}' },
      }),
    ).toEqual([
      'fr a: n has no "other" case',
      'fr a: n has a case "two", not a plural category of fr',
      'fr b: s selects oui, other, English yes, other',
    ]);
  });

  test('when a translation drops, adds or leaves open an emphasis, then it is named', () => {
    expect(
      catalogueProblems({
        en: { a: 'You passed <strong>{t}</strong>', b: 'Plain {t}' },
        es: { a: 'Ha aprobado {t}', b: 'Sencillo <strong>{t}' },
      }),
    ).toEqual([
      'es a: emphasises nothing; English does',
      'es b: an emphasis is not closed',
      'es b: emphasises where English does not',
    ]);
  });
});
