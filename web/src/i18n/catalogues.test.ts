import { compileMessageOrThrow, type CompiledMessage } from '@lingui/message-utils/compileMessage';
import { LANGUAGES, type Language } from './languages';
import ar from './locales/ar';
import en from './locales/en';
import es from './locales/es';
import fr from './locales/fr';
import pt from './locales/pt';
import { seedContent } from '../../../services/assessment/src/domain/seed';
import { SEED_TRANSLATIONS } from '../../../services/assessment/src/domain/seed-translations';

/*
 * Every catalogue says what English says (issue 27): the same ids, and in each message the same values, numbers,
 * plurals and wrapped elements, so that no page shows a raw id, drops a value or loses its bold words in one language.
 */
const catalogues: Record<Language, Record<string, string>> = { en, es, fr, pt, ar };
const translations = LANGUAGES.filter((l) => l !== 'en');

/** The plural forms a language's messages must give: Arabic has six (zero, one, two, few, many, other). */
const PLURAL_FORMS: Partial<Record<Language, string[]>> = {
  ar: [...new Intl.PluralRules('ar').resolvedOptions().pluralCategories],
};
const pluralForms = (language: Language) => PLURAL_FORMS[language] ?? ['one', 'other'];

interface Shape {
  /** Each value the message uses, with how it is formatted: 'value', 'number', 'plural', … */
  values: string[];
  /** The elements it wraps words in, `<0>` and so on. */
  tags: string[];
  /** The forms each of its plurals gives. */
  plurals: string[][];
}

function shapeOf(message: string): Shape {
  const values = new Set<string>();
  const tags = new Set<string>();
  const plurals: string[][] = [];
  const walk = (compiled: CompiledMessage) => {
    for (const token of compiled) {
      if (typeof token === 'string') {
        for (const [, tag] of token.matchAll(/<\/?(\d+)\/?>/g)) tags.add(`<${tag}>`);
        continue;
      }
      const [name, type = 'value', format] = token;
      values.add(`${name}: ${type}`);
      if ((type === 'plural' || type === 'select') && format && typeof format === 'object') {
        if (type === 'plural') plurals.push(Object.keys(format).sort());
        for (const branch of Object.values(format as Record<string, CompiledMessage>)) {
          if (Array.isArray(branch)) walk(branch);
        }
      }
    }
  };
  walk(compileMessageOrThrow(message));
  return { values: [...values].sort(), tags: [...tags].sort(), plurals };
}

describe('Message catalogues', () => {
  it.each(translations)(
    'when the %s catalogue is read, then it has every id English has and no other',
    (l) => {
      const ids = Object.keys(catalogues[l]);
      expect(Object.keys(en).filter((id) => !ids.includes(id))).toEqual([]);
      expect(ids.filter((id) => !(id in en))).toEqual([]);
    },
  );

  it.each(LANGUAGES)('when every %s message is compiled, then none is malformed or empty', (l) => {
    const broken = Object.entries(catalogues[l]).filter(([, message]) => {
      try {
        compileMessageOrThrow(message);
        return message.trim() === '';
      } catch {
        return true;
      }
    });
    expect(broken.map(([id]) => id)).toEqual([]);
  });

  it.each(translations)(
    'when a %s message is compared with English, then it uses the same values, formats and elements',
    (l) => {
      const differing = Object.entries(en)
        .map(([id, english]) => {
          const mine = shapeOf(catalogues[l][id]!);
          const theirs = shapeOf(english);
          return { id, values: mine.values, tags: mine.tags, expected: theirs };
        })
        .filter(
          ({ values, tags, expected }) =>
            values.join() !== expected.values.join() || tags.join() !== expected.tags.join(),
        );
      expect(differing).toEqual([]);
    },
  );

  it.each(LANGUAGES)('when a %s message has a plural, then it gives every form the language has', (l) => {
    const missing = Object.entries(catalogues[l]).flatMap(([id, message]) =>
      shapeOf(message)
        .plurals.map((forms) => pluralForms(l).filter((form) => !forms.includes(form)))
        .filter((lacking) => lacking.length > 0)
        .map((lacking) => `${id}: ${lacking.join(', ')}`),
    );
    expect(missing).toEqual([]);
  });

  it('when a translation drops a value, then the check sees it', () => {
    expect(shapeOf('Section {id}: {title}')).not.toEqual(shapeOf('Sección {id}'));
    expect(shapeOf('{n, plural, one {# point} other {# points}}').values).toEqual(['n: plural']);
    expect(shapeOf('{n} points').values).toEqual(['n: value']);
    expect(shapeOf('to <0>{name}</0>').tags).toEqual(['<0>']);
  });
});

describe('One title per language', () => {
  const seeded = (l: Language) => (l === 'en' ? seedContent(0).title : SEED_TRANSLATIONS[l]?.title);

  it.each(LANGUAGES)(
    'when the sample assessment opens in %s, then its title is the page heading above it, not a second name for it',
    (l) => {
      expect(seeded(l)).toBe(catalogues[l]['app.heading']);
    },
  );
});
