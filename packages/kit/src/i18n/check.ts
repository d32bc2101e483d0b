import { compileMessageOrThrow, type CompiledMessage } from '@lingui/message-utils/compileMessage';
import { STRONG, type Catalogues } from './translator';

type Choices = Record<string, CompiledMessage | number | undefined>;

/** What a message asks of its arguments: each one's type (`''` when it is written as it is) and choices. */
interface Shape {
  args: Map<string, string>;
  choices: Array<{ name: string; type: string; keys: string[] }>;
}

function shapeOf(message: CompiledMessage, shape: Shape = { args: new Map(), choices: [] }): Shape {
  for (const token of message) {
    if (typeof token === 'string') continue;
    const [name, type = '', format] = token;
    shape.args.set(name, type);
    if (type === 'plural' || type === 'selectordinal' || type === 'select') {
      const cases = Object.entries(format as Choices).filter(([key]) => key !== 'offset');
      shape.choices.push({ name, type, keys: cases.map(([key]) => key) });
      for (const [, value] of cases) if (Array.isArray(value)) shapeOf(value, shape);
    }
  }
  return shape;
}

const listed = (args: Map<string, string>) =>
  [...args]
    .map(([name, type]) => (type ? `${name}:${type}` : name))
    .sort()
    .join(', ');

/**
 * What is wrong with a set of catalogues, one line each (none when all is well): a message English has and
 * another language lacks, or has and English does not; a message that does not parse; a translation whose
 * arguments are not English's (a placeholder renamed, dropped or added, `plural` where English has `select`);
 * a `select` whose cases are not English's; a `plural` without `other` or with a category its language does
 * not have; emphasis (`<strong>`) that English has and the translation not, or the other way round, or unclosed.
 */
export function catalogueProblems(catalogues: Catalogues): string[] {
  const problems: string[] = [];
  const parse = (language: string, id: string, message: string): Shape | undefined => {
    try {
      return shapeOf(compileMessageOrThrow(message));
    } catch (err) {
      problems.push(`${language} ${id}: does not parse (${(err as Error).message.split('\n')[0]})`);
      return undefined;
    }
  };
  const check = (language: string, id: string, message: string, english: string | undefined) => {
    const shape = parse(language, id, message);
    const tags = message.match(STRONG) ?? [];
    if (tags.filter((t) => t === '<strong>').length * 2 !== tags.length) {
      problems.push(`${language} ${id}: an emphasis is not closed`);
    }
    const categories = new Set([
      ...new Intl.PluralRules(language).resolvedOptions().pluralCategories,
      ...new Intl.PluralRules(language, { type: 'ordinal' }).resolvedOptions().pluralCategories,
    ]);
    for (const choice of shape?.choices ?? []) {
      if (!choice.keys.includes('other'))
        problems.push(`${language} ${id}: ${choice.name} has no "other" case`);
      if (choice.type === 'select') continue;
      for (const key of choice.keys) {
        if (!/^=\d+$/.test(key) && !categories.has(key as Intl.LDMLPluralRule)) {
          problems.push(
            `${language} ${id}: ${choice.name} has a case "${key}", not a plural category of ${language}`,
          );
        }
      }
    }
    if (english === undefined) return;
    const englishShape = parse('en', id, english);
    if (!shape || !englishShape) return;
    if (listed(shape.args) !== listed(englishShape.args)) {
      problems.push(
        `${language} ${id}: its arguments {${listed(shape.args)}} are not English's {${listed(englishShape.args)}}`,
      );
    }
    for (const choice of shape.choices.filter((c) => c.type === 'select')) {
      const englishKeys = englishShape.choices.find((c) => c.name === choice.name)?.keys ?? [];
      if ([...choice.keys].sort().join() !== [...englishKeys].sort().join()) {
        problems.push(
          `${language} ${id}: ${choice.name} selects ${choice.keys.join(', ')}, English ${englishKeys.join(', ')}`,
        );
      }
    }
    if (message.includes('<strong>') !== english.includes('<strong>')) {
      problems.push(
        `${language} ${id}: emphasises ${tags.length ? 'where English does not' : 'nothing; English does'}`,
      );
    }
  };

  for (const [id, message] of Object.entries(catalogues.en)) check('en', id, message, undefined);
  for (const [language, catalogue] of Object.entries(catalogues)) {
    if (language === 'en') continue;
    for (const id of Object.keys(catalogues.en)) {
      const message = catalogue[id];
      if (message === undefined) problems.push(`${language} ${id}: missing (English has it)`);
      else check(language, id, message, catalogues.en[id]);
    }
    for (const id of Object.keys(catalogue)) {
      if (!(id in catalogues.en)) problems.push(`${language} ${id}: not a message English has`);
    }
  }
  return problems;
}
