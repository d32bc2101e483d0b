import { readdirSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import lingui from 'eslint-plugin-lingui';

/*
 * Layer boundaries (docs/architecture.md, "Layers"). Imports are relative, so a rule names the folder a
 * specifier climbs to: `upTo('app')` matches '../app/store' and '../../../app/store' alike.
 */
const upTo = (folders) => `^(\\.\\./)+(${folders})(/|$)`;
const TESTS = ['**/test/**', '**/*.test.ts', '**/*.test.tsx'];

// Services: entry-points → domain → data-access.
const serviceLayers = [
  {
    files: ['services/*/src/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'express', message: 'The domain knows no HTTP: parse and respond in entry-points.' },
            {
              name: '@readiness/kit/http',
              message: 'The domain knows no HTTP: parse and respond in entry-points.',
            },
            { name: 'pg', message: 'The domain writes no SQL: queries live in data-access.' },
            {
              name: '@readiness/kit/db',
              allowImportNames: [
                'Database',
                'Tx',
                'afterCommit',
                'isUniqueViolation',
                'isForeignKeyViolation',
              ],
              message:
                'The domain uses the database only to open a transaction, to act once it committed and to recognise a conflict; queries live in data-access.',
            },
          ],
          patterns: [
            {
              group: ['drizzle-orm', 'drizzle-orm/*', '@electric-sql/*', '*.sql'],
              message: 'The domain writes no SQL: queries live in data-access.',
            },
            {
              regex: upTo('entry-points'),
              message: 'The domain must not import entry-points (they call it).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['services/*/src/data-access/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'express', message: 'Data access knows no HTTP.' },
            { name: '@readiness/kit/http', message: 'Data access knows no HTTP.' },
          ],
          patterns: [
            {
              regex: upTo('domain|entry-points'),
              message:
                'Data access must not import the domain or entry-points (they call it); it returns plain objects.',
            },
          ],
        },
      ],
    },
  },
];

/*
 * Web app: shared (components, lib) → features → app. A feature uses another feature only through that
 * feature's `api/` folder (its endpoints, their types and what it offers other features); everything
 * else in a feature is its own. `testing/` is the test harness: it mounts the whole app and fakes the
 * whole backend, so only tests import it, and it may import anything.
 */
const features = readdirSync(path.join(import.meta.dirname, 'web/src/features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const sharedMessage = 'Shared code (components, lib) must not import features or the app: they build on it.';
const appMessage = 'Features must not import the app: the app assembles them.';
const testingMessage = 'Only tests import the test harness (testing/).';
const web = (folder, patterns) => [
  {
    files: [`web/src/${folder}/**/*.{ts,tsx}`],
    ignores: TESTS,
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [...patterns, { regex: upTo('testing'), message: testingMessage }] },
      ],
    },
  },
  ...(patterns.length === 0
    ? []
    : [
        {
          files: TESTS.map((glob) => `web/src/${folder}/${glob}`),
          rules: { 'no-restricted-imports': ['error', { patterns }] },
        },
      ]),
];
const webLayers = [
  ...web('app', []),
  ...['components', 'lib'].flatMap((folder) =>
    web(folder, [{ regex: upTo('features|app'), message: sharedMessage }]),
  ),
  ...features.flatMap((feature) => {
    const others = features.filter((other) => other !== feature).join('|');
    return web(`features/${feature}`, [
      { regex: upTo('app'), message: appMessage },
      {
        regex: `^(\\.\\./)+(features/)?(${others})(/(?!api(/|$))|$)`,
        message: `A feature uses another feature only through that feature's api/ folder.`,
      },
    ]);
  }),
  {
    files: ['web/src/main.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^\\./testing(/|$)', message: testingMessage }] },
      ],
    },
  },
];

/*
 * The admin app's words live in its catalogue (web/src/i18n/admin/en, issue 27 item 5): a text a person reads,
 * written in a screen's code, is an error. What is not words is let through: class names, ids, routes, keys, types
 * and attribute values that are not read (the names below), strings with no letter, and one lower-case or camelCase token
 * (`secondary`, `/admin/students`, `text/csv`, `fileInstructions`). The folders are listed as they move into the catalogue.
 */
const ADMIN_SCREENS = [
  'web/src/features/{admins,assessments,audit,auth,dashboard,layout,live,misc,results,students}/**/*.{ts,tsx}',
  // The shared components hold no words of their own: each app gives them theirs (components/ui/words.tsx).
  'web/src/components/**/*.{ts,tsx}',
  'web/src/app/*.{ts,tsx}',
  // `ADMIN_WORDS=web/src/features/x npx eslint web/src/features/x` lists what is left in a folder not listed yet.
  ...(process.env.ADMIN_WORDS ? [`${process.env.ADMIN_WORDS}/**/*.{ts,tsx}`] : []),
];
const notWords = {
  ignore: [
    '^[^A-Z\\s]*$',
    '^[A-Z][A-Z0-9_]*$',
    '^[a-z]+(-[a-z0-9]+)*( [a-z]+(-[a-z0-9]+)*)*$',
    '^[a-z]+([A-Z][a-z0-9]*)+$',
    '^[a-z]+(\\.[a-z][a-zA-Z0-9]*)+$',
  ],
  ignoreNames: [
    {
      regex: {
        pattern:
          '(className|Class|Id|id|Key|key|Url|url|href|to|path|Path|type|Type|role|variant|size|name|mode|method|icon|testid|Ref|accept|autoComplete|inputMode|lang|dir|form|target|rel|align|htmlFor|value|field|status|kind|sort|by|tone|format|fields|Tags|tagTypes)$',
      },
    },
  ],
  ignoreFunctions: [
    'console.*',
    // The web's typed calls (web/src/lib/api-request.ts, api-fetch.ts): their first argument is a declared path.
    'request',
    'typedFetch',
    'uploadWithProgress',
    'openEventStream',
    'apiUrl',
    'field',
    '*.updateQueryData',
    'createAsyncThunk',
    'adminT',
    't',
    'useAdminT',
    'Error',
    'URL',
    'URLSearchParams',
    'require',
    '*.startsWith',
    '*.endsWith',
    '*.includes',
    '*.get',
    '*.set',
    '*.has',
    '*.append',
    '*.delete',
    '*.querySelector',
    '*.querySelectorAll',
    '*.addEventListener',
    '*.removeEventListener',
    'document.createElement',
    'navigate',
    'matchPath',
    'z.*',
    'Intl.*',
    '*.toLocaleString',
    '*.split',
    '*.join',
    '*.replace',
    '*.match',
    '*.test',
  ],
};
const adminWords = {
  files: ADMIN_SCREENS,
  ignores: TESTS,
  plugins: { lingui },
  rules: { 'lingui/no-unlocalized-strings': ['error', notWords] },
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/coverage/**',
      '.data/**',
      'proto/src/gen/**',
      'web/src/lib/gen/**',
      'web/dist/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.jest } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  ...serviceLayers,
  ...webLayers,
  adminWords,
);
