import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../logger';

/**
 * A secret a run without its production setting keeps under DATA_DIR (the event secrets key, the certificate link
 * key, auth's token signing key): read from `${dataDir}/${file}`, or generated once and written there readable by
 * its owner only, so it survives a restart and every service of the data folder shares it. When processes start
 * together, one makes it and the others read it: the secret is written whole to a file of this process's own and
 * then linked under the shared name, which fails if another got there first. A reader so never sees the name before
 * the secret is in it (creating the shared name and writing to it are two steps), and a crash leaves no half secret.
 */
export function dataDirSecret(options: {
  dataDir: string;
  /** Relative to the data folder: `event-secrets.key`, `report/certificate-links.key`. */
  file: string;
  /** Makes a new secret; called only when the file is not there yet. */
  generate: () => string;
  /** Named in the log line when it is generated: `the event secrets key`. */
  what: string;
  logger: Pick<Logger, 'info'>;
}): string {
  const file = path.join(options.dataDir, options.file);
  const existing = readIfThere(file);
  if (existing !== undefined) return existing;
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, options.generate(), { flag: 'wx', mode: 0o600 });
  try {
    linkSync(draft, file);
    options.logger.info({ file }, `generated ${options.what} for this data folder`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    rmSync(draft, { force: true });
  }
  return readFileSync(file, 'utf8');
}

function readIfThere(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
