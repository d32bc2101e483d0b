import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '@readiness/kit/logger';

export const LINK_KEY_FILE = 'certificate-links.key';

/**
 * The key that signs certificate download links: CERTIFICATE_LINK_KEY (production requires it; every replica
 * holds the same), else one generated once and kept in `${DATA_DIR}/report/certificate-links.key`.
 */
export function loadLinkKey(
  config: { CERTIFICATE_LINK_KEY?: string; DATA_DIR: string },
  logger: Logger,
): Buffer {
  if (config.CERTIFICATE_LINK_KEY) return Buffer.from(config.CERTIFICATE_LINK_KEY, 'utf8');
  const dir = path.join(config.DATA_DIR, 'report');
  const file = path.join(dir, LINK_KEY_FILE);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(file, randomBytes(32).toString('base64'), { flag: 'wx', mode: 0o600 });
    logger.info({ file }, 'generated the certificate link key for this data folder');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'utf8');
}
