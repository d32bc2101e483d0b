import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './helm';

const tool = path.join(repoRoot, 'deploy/tools/topology.mjs');

/** What `generatedFiles` writes for the given rows, from a child process (the tool is an ES module). */
const generatedFor = (rowsScript: string): Record<string, string> => {
  const script = `import { generatedFiles, loadTopology } from ${JSON.stringify(tool)};
const rows = loadTopology(); ${rowsScript}
process.stdout.write(JSON.stringify(await generatedFiles(rows)));`;
  const res = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    cwd: repoRoot,
  });
  if (res.status !== 0) throw new Error(res.stderr);
  return JSON.parse(res.stdout) as Record<string, string>;
};

describe('the files written from the topology table (deploy/tools/topology.mjs, `make topology`)', () => {
  test('when the table or a workspace changed, then every file written from it is up to date', () => {
    const res = spawnSync(process.execPath, [tool, '--check'], { encoding: 'utf8', cwd: repoRoot });
    expect([res.status, res.stderr.trim()]).toEqual([0, '']);
  });

  test('when a row is added, then its image, its values, its queues, its project references, its module and the events it consumes follow', () => {
    const files = generatedFor(
      `rows.splice(rows.length - 1, 0, { name: 'certificate', stackPort: 8107, publishes: [],
        consumes: [{ queue: 'certificate.password-reset', events: ['auth.admin.password-reset.v1'] }],
        uses: { postgres: true, rabbitmq: true, redis: true, s3: true, smtp: false } });`,
    );
    expect(files['skaffold.yaml']).toContain('- image: readiness-certificate');
    expect(files['skaffold.yaml']).toContain(
      "services.certificate.image.tag: '{{.IMAGE_TAG_readiness_certificate}}@{{.IMAGE_DIGEST_readiness_certificate}}'",
    );
    expect(files['charts/readiness/topology.yaml']).toMatch(
      / {2}certificate:\n.*\n {4}queues:\n {6}- certificate\.password-reset\n/,
    );
    expect(files['tsconfig.json']).toContain('"path": "services/certificate"');
    expect(files['deploy/all-in-one/tsconfig.json']).toContain('"path": "../../services/certificate"');
    expect(files['deploy/all-in-one/src/service-modules.ts']).toContain(
      "import { certificateService } from '@readiness/certificate';",
    );
    expect(files['deploy/all-in-one/src/service-modules.ts']).toContain('  certificate: certificateService,');
    expect(files['docs/events.md']).toContain(
      '| `auth.admin.password-reset.v1` | auth | notification (`notification.admin-password-reset`), certificate (`certificate.password-reset`) |',
    );
  });
});
