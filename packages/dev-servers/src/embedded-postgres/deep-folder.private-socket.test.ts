import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { startEmbeddedPostgres } from '.';
import { logger, query, scratchFolder } from './test/helpers';

jest.setTimeout(120_000);

const scratch = scratchFolder('embedded-pg-deep-');

test('when DATA_DIR is too deep for a socket path, then the server still listens on a private socket only and removes it on stop', async () => {
  const dataDir = path.join(scratch, 'x'.repeat(60), 'y'.repeat(60), 'postgres');
  const server = await startEmbeddedPostgres({ dataDir, logger });
  const socketDir = new URLSearchParams(server.url('postgres').split('?')[1]).get('host') as string;
  try {
    expect(socketDir.startsWith(dataDir)).toBe(false);
    expect(statSync(socketDir).mode & 0o077).toBe(0);
    const rows = await query(await server.ensureDatabase('app'), 'SHOW listen_addresses');
    expect(rows).toEqual([{ listen_addresses: '' }]);
  } finally {
    await server.stop();
  }
  expect(existsSync(socketDir)).toBe(false);
});
