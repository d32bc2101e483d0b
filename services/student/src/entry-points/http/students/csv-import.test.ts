import { csvRows } from './csv-import';
import { parseCsv } from '../../../domain/csv';
import { checkRows } from '../../../domain/students/import-students';

const HEADER = 'name,email,phoneNumber,extraTimePercent';
const rowsOf = (...lines: string[]) => csvRows([HEADER, ...lines].join('\r\n'), 10_000);

describe('the rules of the students CSV', () => {
  it.each<[string, string, Array<{ line: number; fields: string[] }>]>([
    [
      'two plain lines',
      'a,b\r\nc,d',
      [
        { line: 1, fields: ['a', 'b'] },
        { line: 2, fields: ['c', 'd'] },
      ],
    ],
    [
      'LF line ends',
      'a,b\nc,d\n',
      [
        { line: 1, fields: ['a', 'b'] },
        { line: 2, fields: ['c', 'd'] },
      ],
    ],
    ['a byte order mark', '\uFEFFname,email', [{ line: 1, fields: ['name', 'email'] }]],
    ['a quoted comma', '"Row, Eve",eve@x.io', [{ line: 1, fields: ['Row, Eve', 'eve@x.io'] }]],
    ['a doubled quote inside quotes', '"Say ""hi""",x', [{ line: 1, fields: ['Say "hi"', 'x'] }]],
    [
      'a line break inside quotes (the next record keeps its own line number)',
      '"two\nlines",x\r\nnext,y',
      [
        { line: 1, fields: ['two\nlines', 'x'] },
        { line: 3, fields: ['next', 'y'] },
      ],
    ],
    [
      'blank lines between records',
      'a,b\r\n\r\n   \r\nc,d',
      [
        { line: 1, fields: ['a', 'b'] },
        { line: 4, fields: ['c', 'd'] },
      ],
    ],
    ['empty fields', 'a,,\r\n', [{ line: 1, fields: ['a', '', ''] }]],
    ['nothing', '', []],
  ])('when the file holds %s, then it reads as its records', (_what, text, records) => {
    expect(parseCsv(text)).toEqual(records);
  });

  it.each<[string, string, object]>([
    [
      'a full row',
      'Alice Row,Alice@Example.edu, 555-1 ,25',
      {
        ok: true,
        value: {
          name: 'Alice Row',
          email: 'alice@example.edu',
          phoneNumber: '555-1',
          extraTimePercent: 25,
          language: null,
        },
      },
    ],
    [
      'a row without phone and extra time',
      'Bob Row,bob@example.edu,,',
      { ok: true, value: { email: 'bob@example.edu', phoneNumber: null, extraTimePercent: 0 } },
    ],
    [
      'a name with a comma, quoted',
      '"Row, Eve",eve@example.edu,,',
      { ok: true, value: { name: 'Row, Eve' } },
    ],
    [
      'an invalid e-mail',
      'Bob Row,not-an-email,,',
      { ok: false, email: 'not-an-email', message: 'Invalid email address' },
    ],
    [
      'two e-mails in one cell',
      'Mallory Row,"a,b@x.io",,',
      { ok: false, email: 'a,b@x.io', message: 'Invalid email address' },
    ],
    [
      'markup for an e-mail',
      'Trudy Row,<script>@x.io,,',
      { ok: false, email: '<script>@x.io', message: 'Invalid email address' },
    ],
    [
      'a one-letter name',
      'A,a@example.edu,,',
      { ok: false, email: 'a@example.edu', message: 'Name must be at least 2 characters' },
    ],
    [
      'extra time over 300 %',
      'Big Row,big@example.edu,,301',
      { ok: false, email: 'big@example.edu', message: 'Extra time must be a whole percentage from 0 to 300' },
    ],
    [
      'extra time that is not a whole number',
      'Half Row,half@example.edu,,12.5',
      {
        ok: false,
        email: 'half@example.edu',
        message: 'Extra time must be a whole percentage from 0 to 300',
      },
    ],
  ])('when a row is %s, then it reads %j', (_what, line, parsed) => {
    const [row] = rowsOf(line);
    expect(row).toMatchObject({ line: 2, parsed });
  });

  it('when the columns come in another order, some unknown, then each value is read from its own column', () => {
    const [row] = csvRows('notes, email ,name,language\r\nhello,ana@example.edu,Ana Row,ES', 10);
    expect(row!.parsed).toEqual({
      ok: true,
      value: {
        name: 'Ana Row',
        email: 'ana@example.edu',
        phoneNumber: null,
        extraTimePercent: 0,
        language: 'es',
      },
    });
  });

  it.each([
    ['no header naming name and email', 'Alice,alice@example.edu', 'The first line must name the columns'],
    ['an empty file', '', 'The first line must name the columns'],
  ])('when the file has %s, then it is refused whole', (_what, text, message) => {
    expect(() => csvRows(text, 10)).toThrow(message);
  });

  it.each([
    [3, 3, false],
    [4, 3, true],
  ])(
    'when the file has %i rows and the limit is %i, then it is refused whole: %s',
    (rows, limit, refused) => {
      const text = [HEADER, ...Array.from({ length: rows }, (_, i) => `Row ${i},r${i}@example.edu,,`)].join(
        '\n',
      );
      if (refused) {
        expect(() => csvRows(text, limit)).toThrow(
          `The file has ${rows} students; import at most ${limit} at a time (split the file)`,
        );
      } else expect(csvRows(text, limit)).toHaveLength(rows);
    },
  );

  it('when rows are checked, then each refused row and each e-mail already on an earlier line is a problem by line, and the rest are invited', () => {
    const checked = checkRows(
      rowsOf(
        'Alice Row,alice@example.edu,555-1,25',
        'Bob Row,not-an-email,,',
        'Carol Row,ALICE@example.edu,,',
        '"Row, Eve",eve@example.edu,,',
        'Dan Row,eve@example.edu,,',
      ),
    );
    expect(checked.problems).toEqual([
      { line: 3, email: 'not-an-email', message: 'Invalid email address' },
      { line: 4, email: 'alice@example.edu', message: 'Duplicate email in the file (first on line 2)' },
      { line: 6, email: 'eve@example.edu', message: 'Duplicate email in the file (first on line 5)' },
    ]);
    expect(checked.candidates.map((c) => [c.line, c.value.email])).toEqual([
      [2, 'alice@example.edu'],
      [5, 'eve@example.edu'],
    ]);
  });
});
