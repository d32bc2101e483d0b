import type { z } from 'zod';
import { parse, personNameField, textField } from './index';

const message = (schema: z.ZodType, value: unknown) => {
  try {
    parse(schema, value);
    return 'accepted';
  } catch (err) {
    return (err as Error).message;
  }
};

describe('textField', () => {
  const name = textField({ label: 'Name' });
  const notes = textField({ label: 'Notes', multiLine: true });

  test('when a one-line field holds any C0 or C1 control character, then it is refused and names the field', () => {
    for (const code of [0x00, 0x07, 0x09, 0x0a, 0x0d, 0x1b, 0x7f, 0x85, 0x9b]) {
      expect({ code, result: message(name, `Ada${String.fromCharCode(code)}Lovelace`) }).toEqual({
        code,
        result: 'Name must not contain control characters',
      });
    }
    expect(message(name, 'Ada Lovelace – Zoë 李')).toBe('accepted');
    expect(message(name, undefined)).toBe('Name is required');
  });

  test('when free text holds tabs and line breaks, then they pass; other controls are still refused', () => {
    expect(message(notes, 'line one\r\nline two\tindented')).toBe('accepted');
    expect(message(notes, 'bell\u0007')).toBe('Notes must not contain control characters');
    expect(message(notes, 'nul\u0000')).toBe('Notes must not contain control characters');
  });
});

describe('personNameField', () => {
  test.each([
    ['only a zero-width space', '\u200b', 'Name must contain a letter'],
    ['only zero-width spaces', '\u200b\u200b\u200b', 'Name must contain a letter'],
    ['only a right-to-left override', '\u202e', 'Name must contain a letter'],
    ['only direction controls, closed', '\u2067\u2069\u202e\u202c', 'Name must contain a letter'],
    ['only Hangul fillers', '\u3164\u3164', 'Name must contain a letter'],
    ['digits and marks', '42 \u200f', 'Name must contain a letter'],
    ['an override left open', 'Ann\u202e', 'Name has an unclosed direction control'],
    ['an embedding left open', '\u202bAnn Lee', 'Name has an unclosed direction control'],
    ['an isolate left open', 'Ann\u2067x', 'Name has an unclosed direction control'],
    [
      'an isolate closed by the embeddings’ closer',
      'Ann\u2067x\u202c',
      'Name has an unclosed direction control',
    ],
    ['a closer with nothing open', 'Ann\u2069 Lee', 'Name has an unclosed direction control'],
    ['one letter', 'A', 'Name must be at least 2 characters'],
    ['nothing but spaces', '   ', 'Name is required'],
  ])('when a name is %s, then it is refused with the rule it breaks', (_, value, expected) => {
    expect(message(personNameField, value)).toBe(expected);
  });

  test('when a name holds closed direction controls or any script, then it is accepted', () => {
    for (const name of [
      'Ann \u2067سارة\u2069 Lee',
      '\u202bمحمد\u202c',
      '\u2068\u202eAnn\u202c\u2069',
      'سارة المنصوري',
      'Zoë 李',
      'O\u2019Brien',
    ]) {
      expect({ name, result: message(personNameField, name) }).toEqual({ name, result: 'accepted' });
    }
  });
});
