/**
 * The version of a service just before its newest migration, built: what an upgrade replaces. Its files come from
 * `git archive` of that commit (the repository itself is left as it is) into a folder under the temporary
 * directory, kept for the next run; its node_modules are this checkout's, with the workspace packages pointing
 * at the old version's own (so the old service runs on the old kit); `tsc -b` builds the service and what it uses.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readlink, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../../..');

export interface PreviousVersion {
  /** The checkout to run the service from (`serviceRoot` of the local stack). */
  root: string;
  commit: string;
}

async function git(...args: string[]): Promise<string> {
  return (await run('git', args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 })).stdout.trim();
}

export async function previousVersion(service: string): Promise<PreviousVersion> {
  const newest = await git(
    'log',
    '-1',
    '--format=%H',
    '--',
    `services/${service}/src/data-access/migrations`,
  );
  if (!newest) throw new Error(`${service} has no migrations in this checkout's history`);
  const commit = await git('rev-parse', '--verify', '--quiet', `${newest}^`).catch(() => '');
  if (!commit)
    throw new Error(
      `the commit before ${newest.slice(0, 12)} is not in this clone: the upgrade rehearsal needs history`,
    );
  const root = path.join(os.tmpdir(), `readiness-previous-${commit.slice(0, 12)}`);
  // Kept from an earlier run, unless the checkout its node_modules link to is gone (a deleted clone).
  const built = existsSync(path.join(root, `services/${service}/dist/main.js`));
  if (built && existsSync(path.join(root, 'node_modules/.bin/tsc'))) return { root, commit };

  await rm(root, { recursive: true, force: true });
  await mkdir(root, { recursive: true });
  const archive = path.join(root, '.source.tar');
  await git('archive', '--format=tar', `--output=${archive}`, commit);
  await run('tar', ['-xf', archive, '-C', root]);
  await rm(archive);

  const modules = path.join(root, 'node_modules');
  await mkdir(path.join(modules, '@readiness'), { recursive: true });
  const ours = path.join(ROOT, 'node_modules');
  for (const name of await readdir(ours)) {
    if (name === '@readiness' || !existsSync(path.join(ours, name))) continue;
    await symlink(path.join(ours, name), path.join(modules, name));
  }
  // Relative links (../../packages/kit): inside the old checkout they reach its own packages.
  for (const name of await readdir(path.join(ours, '@readiness'))) {
    await symlink(
      await readlink(path.join(ours, '@readiness', name)),
      path.join(modules, '@readiness', name),
    );
  }
  await run(path.join(modules, '.bin/tsc'), ['-b', `services/${service}`], { cwd: root });
  return { root, commit };
}
