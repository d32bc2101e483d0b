import { emailPattern, emailField as webEmailField } from '../../../../web/src/features/auth/api/schemas';
import { EMAIL_PATTERN, emailField } from './text';

const VALID = [
  'a@x.io',
  "o'brien@example.edu",
  'first.last+tag@sub.example.co.uk',
  'MiXeD@Example.EDU',
  `${'a'.repeat(64)}@x.io`,
  `a@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(60)}`,
];
const INVALID = [
  'a,b@x.io',
  'a;b@x.io',
  'a@x.io,b@y.io',
  'a@x.io;b@y.io',
  '<script>@x.io',
  'Eve <eve@x.io>',
  '"a b"@x.io',
  '"quoted"@x.io',
  'a b@x.io',
  'a@x .io',
  'a\t@x.io',
  '.a@x.io',
  'a.@x.io',
  'a..b@x.io',
  'a@x',
  'a@-x.io',
  'a@x-.io',
  'a@@x.io',
  '@x.io',
  `${'a'.repeat(65)}@x.io`,
  `a@${'b'.repeat(64)}.io`,
  `a@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(61)}`,
];

describe('the e-mail rule of every form and CSV row', () => {
  it.each(VALID)('when %s is given, then it is one valid address', (value) => {
    expect(emailField.safeParse(value)).toEqual({ success: true, data: value.toLowerCase() });
    expect(webEmailField.safeParse(value).success).toBe(true);
  });

  it.each(INVALID)(
    'when %s is given, then it answers Invalid email address, in the services and the web app',
    (value) => {
      const parsed = emailField.safeParse(value);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues.map((i) => i.message)).toContain(
        /[\t]/.test(value) ? 'Email must not contain control characters' : 'Invalid email address',
      );
      expect(webEmailField.safeParse(value).success).toBe(false);
    },
  );

  it('when the web app checks an address, then it uses the pattern the services use', () => {
    expect(emailPattern.source).toBe(EMAIL_PATTERN.source);
  });
});
