import { parse, textField } from './index';

const message = (schema: ReturnType<typeof textField>, value: unknown) => {
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
