import { useStudent } from './harness';

jest.setTimeout(60_000);

// Each: what the name is, the rule it breaks, the name. Names a page, mail or certificate would print blank, or that would turn around the sentence they stand in.
const HOSTILE: Array<[string, string, string]> = [
  ['only a zero-width space', 'Name must contain a letter', '\u200b\u200b'],
  ['only a right-to-left override', 'Name must contain a letter', '\u202e\u202e'],
  ['an override left open', 'Name has an unclosed direction control', 'Ann\u202e'],
  ['an isolate left open', 'Name has an unclosed direction control', 'Ann\u2067x'],
];

const h = useStudent('embedded', { version: false });

let n = 0;
const email = () => `names${++n}@example.edu`;

describe('a student invited by hand', () => {
  test.each(HOSTILE)(
    'when the name is %s, then 400 says %s and nobody is invited',
    async (_, message, name) => {
      const address = email();
      const res = await h.call('POST', '/api/admin/students/invite', { body: { name, email: address } });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ message, code: 'validation_failed' });
      const listed = (await (await h.call('GET', `/api/admin/students?search=${address}`)).json()) as {
        students: unknown[];
      };
      expect(listed.students).toEqual([]);
    },
  );

  test('when the name closes the isolate it opens, then the student is invited with the name as typed', async () => {
    const name = 'Ann \u2067سارة\u2069 Lee';
    const res = await h.call('POST', '/api/admin/students/invite', { body: { name, email: email() } });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { student: { name: string } }).student.name).toBe(name);
  });
});

describe('students imported from a CSV', () => {
  test('when rows hold hostile names, then each is a problem on its line with the rule, and only the good row counts', async () => {
    const rows = HOSTILE.map(([, , name]) => `${name},${email()}`);
    const good = `Ann \u2068سارة\u2069 Lee,${email()}`;
    const res = await h.importCsv(['name,email', ...rows, good].join('\n'), { dryRun: true });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { valid: number; problems: Array<{ line: number; message: string }> };
    expect(body.valid).toBe(1);
    expect(body.problems.map(({ line, message }) => ({ line, message }))).toEqual(
      HOSTILE.map(([, message], i) => ({ line: i + 2, message })),
    );
  });
});
