import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { consumerQueues } from '@readiness/contracts';

/*
 * The docs say what the code does: the facts below are read from the code, and the docs must name them, so a
 * queue, a token verifier or a top-level folder added without its line in the docs fails here.
 */
const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

const SERVICES = readdirSync(path.join(ROOT, 'services'));

describe('docs/architecture.md', () => {
  const rows = new Map(
    read('docs/architecture.md')
      .split('\n')
      .filter((line) => /^\| [a-z]+ \|/.test(line))
      .map((line) => [(line.split('|')[1] ?? '').trim(), line] as const),
  );

  it.each(consumerQueues.map((c) => [c.queue, c.events] as const))(
    'when the consumer table binds %s, then its service row names the queue and its events',
    (queue, events) => {
      const row = rows.get(queue.split('.')[0] ?? '') ?? '';
      expect(row).toContain(`\`${queue}\``);
      for (const event of events) expect(row).toContain(`\`${event}\``);
    },
  );
});

describe('README.md', () => {
  const readme = read('README.md');

  it('when a service verifies admin tokens, then the JWT issuer and audience row names it', () => {
    const verifiers = SERVICES.filter((name) => {
      try {
        return read(`services/${name}/src/config.ts`).includes('adminAuthEnv');
      } catch {
        return false;
      }
    });
    const row = readme.split('\n').find((line) => line.startsWith('| `JWT_ISSUER` / `JWT_AUDIENCE` |')) ?? '';
    const named = row.split('|')[2];
    expect(verifiers.length).toBeGreaterThan(3);
    for (const name of [...verifiers, 'auth', 'gateway']) expect(named).toMatch(new RegExp(`\\b${name}\\b`));
  });

  it('when a top-level folder is in the repository, then the layout names it', () => {
    const layout = readme.slice(readme.indexOf('## Layout'));
    const block = layout.slice(layout.indexOf('```'), layout.indexOf('```', layout.indexOf('```') + 3));
    const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n');
    const folders = [
      ...new Set(tracked.filter((f) => f.includes('/') && !f.startsWith('.')).map((f) => f.split('/')[0])),
    ];
    expect(folders.length).toBeGreaterThan(5);
    for (const folder of folders) expect(block).toMatch(new RegExp(`^${folder}/`, 'm'));
  });
});
