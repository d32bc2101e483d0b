import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { dataDirSecret } from '@readiness/kit/config';
import type { Logger } from '@readiness/kit/logger';

const LINK_KEY_FILE = 'certificate-links.key';

/**
 * The key that signs certificate download links: CERTIFICATE_LINK_KEY (production requires it; every replica
 * holds the same), else one generated once and kept in `${DATA_DIR}/report/certificate-links.key`.
 */
export function loadLinkKey(
  config: { CERTIFICATE_LINK_KEY?: string; DATA_DIR: string },
  logger: Logger,
): Buffer {
  if (config.CERTIFICATE_LINK_KEY) return Buffer.from(config.CERTIFICATE_LINK_KEY, 'utf8');
  const key = dataDirSecret({
    dataDir: config.DATA_DIR,
    file: path.join('report', LINK_KEY_FILE),
    generate: () => randomBytes(32).toString('base64'),
    what: 'the certificate link key',
    logger,
  });
  return Buffer.from(key.trim(), 'utf8');
}
