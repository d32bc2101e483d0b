import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const SETPRIV_PLACES = ['/usr/bin/setpriv', '/bin/setpriv'];

/**
 * The browser's executable, behind a launcher that ties it to this process where Linux allows it: `setpriv
 * --pdeathsig=SIGKILL` makes the kernel kill the browser when the process that launched it dies, even by SIGKILL,
 * so no orphaned Chromium outlives a killed service (its renderers follow their browser). Elsewhere, or without
 * setpriv, the executable itself.
 */
export function tiedToThisProcess(executablePath: string): string {
  const setpriv = process.platform === 'linux' ? SETPRIV_PLACES.find((p) => existsSync(p)) : undefined;
  if (!setpriv) return executablePath;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'readiness-browser-'));
  const launcher = path.join(dir, 'chromium');
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  writeFileSync(
    launcher,
    `#!/bin/sh\nexec ${quote(setpriv)} --pdeathsig=SIGKILL -- ${quote(executablePath)} "$@"\n`,
    {
      mode: 0o700,
    },
  );
  return launcher;
}
