// One jest run for the whole monorepo: TypeScript is compiled by SWC, workspace packages resolve to their sources.
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      target: 'es2022',
      transform: { react: { runtime: 'automatic' } },
    },
    module: { type: 'commonjs' },
  },
];
// The shared test fixtures and the contracts they are built through load in every project, the web's jsdom included.
const fixturesMapper = {
  '^@readiness/testing/fixtures$': '<rootDir>/packages/testing/src/fixtures',
  '^@readiness/contracts$': '<rootDir>/proto/src',
};
const moduleNameMapper = {
  ...fixturesMapper,
  '^@readiness/kit/(.*)$': '<rootDir>/packages/kit/src/$1',
  '^@readiness/testing$': '<rootDir>/packages/testing/src',
  '^@readiness/dev-servers$': '<rootDir>/packages/dev-servers/src',
  // Every other package is a service: services/<name>.
  '^@readiness/([a-z-]+)$': '<rootDir>/services/$1/src',
};
// jest's runtime, keeping V8's compiled code of a module between the files a worker runs (the file says why).
const runtime = '<rootDir>/tests/tools/compile-cache-runtime.js';
const node = {
  runtime,
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j)sx?$': swc },
  // jose, openid-client, oauth4webapi and otplib's @scure/@noble helpers ship ES modules only: SWC compiles them to
  // CommonJS for jest (Node itself requires them as they are).
  transformIgnorePatterns: ['/node_modules/(?!(jose|openid-client|oauth4webapi|@otplib|@scure|@noble)/)'],
  moduleNameMapper,
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  setupFiles: ['<rootDir>/tests/tools/test-env.js'],
};
module.exports = {
  // Component tests start real services, some on their own embedded PostgreSQL server.
  testTimeout: 30_000,
  // Jest's usual order, but for the browser lane's files on its shared product (web/e2e/sequencer.js), which must
  // also run one at a time: `make test` runs them so, and by hand `npx jest --selectProjects e2e --maxWorkers=1`.
  testSequencer: '<rootDir>/web/e2e/sequencer.js',
  projects: [
    { ...node, displayName: 'kit', roots: ['<rootDir>/packages', '<rootDir>/proto'] },
    {
      ...node,
      displayName: 'services',
      roots: ['<rootDir>/services'],
      testPathIgnorePatterns: [...node.testPathIgnorePatterns, '\\.scale\\.test\\.ts$'],
    },
    // `make bench`'s services at the size of several enrolment peaks: their figures go to docs/benchmarks.md; not in
    // `make test`, which tests the same answers at a small size (packages/testing/src/scale.ts).
    {
      ...node,
      displayName: 'scale',
      roots: ['<rootDir>/services'],
      testMatch: ['**/*.scale.test.ts'],
    },
    {
      ...node,
      displayName: 'deploy',
      roots: ['<rootDir>/deploy', '<rootDir>/charts'],
      // The HTTP journeys through `make start` run in the browser lane, on its shared product.
      testPathIgnorePatterns: [...node.testPathIgnorePatterns, '\\.e2e\\.test\\.ts$'],
    },
    // QUALITY.md's fault scenarios, traces, the restore and upgrade rehearsals against the local stack built from
    // dist, and the product from its images (podman).
    {
      ...node,
      displayName: 'faults',
      roots: [
        '<rootDir>/tests/faults',
        '<rootDir>/tests/traces',
        '<rootDir>/tests/operations',
        '<rootDir>/tests/images',
      ],
    },
    // Browser tests and the HTTP journeys against the built product (`make build` first): one product and one Chromium
    // started for the lane (web/e2e/shared-product.ts) serve every file with the default configuration.
    {
      ...node,
      displayName: 'e2e',
      roots: ['<rootDir>/web/e2e', '<rootDir>/deploy/all-in-one/test'],
      testMatch: ['**/web/e2e/**/*.test.ts', '**/deploy/all-in-one/test/*.e2e.test.ts'],
      globalSetup: '<rootDir>/web/e2e/global-setup.ts',
      globalTeardown: '<rootDir>/web/e2e/global-teardown.ts',
      // Pictures the open pages of a failed test (test-results/e2e-failures).
      testEnvironment: '<rootDir>/web/e2e/failure-environment.js',
      setupFilesAfterEnv: ['<rootDir>/web/e2e/retry-once.ts'],
    },
    {
      displayName: 'web',
      runtime,
      roots: ['<rootDir>/web/src'],
      // jsdom with Node's fetch, streams and URL, which MSW 2 needs; '' export condition = MSW's node build.
      testEnvironment: 'jest-fixed-jsdom',
      testEnvironmentOptions: { customExportConditions: [''] },
      transform: { '^.+\\.(t|j)sx?$': swc, '/node_modules/.+\\.mjs$': swc },
      // MSW depends on ESM-only packages; SWC compiles those to CommonJS for jest.
      transformIgnorePatterns: ['/node_modules/(?!(until-async/|openapi-msw/|.*\\.mjs$))'],
      setupFilesAfterEnv: ['<rootDir>/web/src/testing/setup-tests.ts'],
      moduleNameMapper: {
        ...fixturesMapper,
        '\\.css$': '<rootDir>/web/src/testing/style-stub.ts',
        // The toasts' stylesheet, which react-toastify injects at import: jsdom lays nothing out, and one 18 KB sheet in
        // the page doubled the cost of every style lookup (each role query's visibility check, each click's
        // pointer-events check). The unstyled build is the same component with the same classes.
        '^react-toastify$': '<rootDir>/node_modules/react-toastify/dist/unstyled.js',
      },
      testPathIgnorePatterns: ['/node_modules/', '/dist/'],
    },
  ],
};
