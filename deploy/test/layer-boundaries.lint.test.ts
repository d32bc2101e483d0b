import { execFileSync } from 'node:child_process';
import path from 'node:path';

/*
 * The layer boundaries in eslint.config.mjs, tried the way `make lint` meets them: ESLint lints a small
 * file placed (virtually) in each layer that imports what the layer may not, and must refuse it; the
 * same file importing what the layer may use must pass, so a rule that refused everything would fail too.
 */
const ROOT = path.resolve(__dirname, '../..');

interface Fixture {
  file: string;
  code: string;
}

// ESLint loads its flat config with import(), which jest's module sandbox does not offer: lint in a child.
function restrictedImportMessages(fixtures: Fixture[]): string[][] {
  const script = `
    const { ESLint } = require('eslint');
    const fixtures = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
    (async () => {
      const eslint = new ESLint({ cwd: process.cwd() });
      const found = [];
      for (const { file, code } of fixtures) {
        const [result] = await eslint.lintText(code, { filePath: file });
        found.push(result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message));
      }
      process.stdout.write(JSON.stringify(found));
    })().catch((err) => { console.error(err); process.exit(1); });
  `;
  const out = execFileSync(process.execPath, ['-e', script], {
    cwd: ROOT,
    input: JSON.stringify(fixtures),
    encoding: 'utf8',
  });
  return JSON.parse(out) as string[][];
}

const use = (names: string, from: string) => `import { ${names} } from '${from}';\nexport { ${names} };\n`;

// [who imports what, file, refused import, allowed import]
const cases: [string, string, string, string][] = [
  [
    'a service domain module imports express',
    'services/auth/src/domain/fixture.ts',
    use('Router', 'express'),
    use('AppError', '@readiness/kit/errors'),
  ],
  [
    'a service domain module imports drizzle',
    'services/auth/src/domain/fixture.ts',
    use('eq', 'drizzle-orm'),
    use('AppError', '@readiness/kit/errors'),
  ],
  [
    "a service domain module takes the kit's query builder",
    'services/auth/src/domain/fixture.ts',
    use('type Db', '@readiness/kit/db'),
    use('type Tx, isUniqueViolation', '@readiness/kit/db'),
  ],
  [
    'a service domain module imports an entry point',
    'services/auth/src/domain/fixture.ts',
    use('registerRoutes', '../entry-points/http/routes'),
    use('adminEvents', './events'),
  ],
  [
    'a service data-access module imports the domain',
    'services/auth/src/data-access/fixture.ts',
    use('adminEvents', '../domain/events'),
    use('rows', '@readiness/kit/db'),
  ],
  [
    'a service data-access module imports an entry point',
    'services/notification/src/data-access/fixture.ts',
    use('devMailRouter', '../entry-points/http/dev-mail'),
    use('eq', 'drizzle-orm'),
  ],
  [
    'a web lib module imports a feature',
    'web/src/lib/fixture.ts',
    use('logout', '../features/auth/auth-slice'),
    use('api', './api'),
  ],
  [
    'a web shared component imports the app',
    'web/src/components/ui/fixture.tsx',
    use('setupStore', '../../app/store'),
    use('formatDate', '../../lib/format'),
  ],
  [
    'a web feature imports the app',
    'web/src/features/admins/components/fixture.tsx',
    use('setupStore', '../../../app/store'),
    use('Button', '../../../components/ui'),
  ],
  [
    "a web feature reaches into another feature's internals",
    'web/src/features/admins/components/fixture.tsx',
    use('logout', '../../auth/auth-slice'),
    use('logout', '../../auth/api/session'),
  ],
  [
    'web app code imports the test harness',
    'web/src/features/auth/components/fixture.tsx',
    use('renderApp', '../../../testing/render'),
    use('redirectTarget', '../redirect-target'),
  ],
];

const testUsingHarness: Fixture = {
  file: 'web/src/features/auth/test/fixture.test.tsx',
  code: use('renderApp', '../../../testing/render'),
};

describe('layer boundaries in lint', () => {
  let refused: string[][];
  let allowed: string[][];
  let harnessInTest: string[];

  beforeAll(() => {
    const found = restrictedImportMessages([
      ...cases.flatMap(([, file, bad, good]) => [
        { file, code: bad },
        { file, code: good },
      ]),
      testUsingHarness,
    ]);
    harnessInTest = found.pop()!;
    refused = found.filter((_, i) => i % 2 === 0);
    allowed = found.filter((_, i) => i % 2 === 1);
  }, 120_000);

  test.each(cases.map((c, i) => [c[0], i] as const))(
    'when %s, then lint refuses it, and accepts what that layer may use',
    (_who, i) => {
      expect(refused[i]).toHaveLength(1);
      expect(allowed[i]).toEqual([]);
    },
  );

  test('when a web test imports the test harness, then lint accepts it', () => {
    expect(harnessInTest).toEqual([]);
  });
});
